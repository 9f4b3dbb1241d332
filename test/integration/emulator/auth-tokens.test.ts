import { describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator";
import { CREDENTIALS, PlatformApi } from "./support/platform-api";
import { useEmulator } from "./support/fixtures";

const h = useEmulator();

/** One request per device operation, each with what it needs to get past validation. */
const OPERATIONS: [string, string, unknown?][] = [
  ["POST", "/devices", { snDevEUI: "240000000001", name: "x" }],
  ["POST", "/devices/search", { pageNumber: 1, pageSize: 10 }],
  ["GET", "/devices/1"],
  ["PUT", "/devices", { deviceId: "1", name: "x" }],
  ["DELETE", "/devices/1"],
  ["GET", "/devices/1/thing-specification"],
  ["PATCH", "/devices/1/properties", { properties: { a: 1 } }],
  ["GET", "/devices/1/config"],
  ["POST", "/tasks", { type: "TSL", deviceIds: ["1"], config: { properties: { a: 1 } } }],
  ["POST", "/rps/profile", { sn: "240000000001", profileUrl: "https://rps.example.com/p" }],
  ["POST", "/rps/search", { pageNumber: 1, pageSize: 10 }],
  ["DELETE", "/rps/240000000001"],
  ["GET", "/devices/1/properties/history"],
  ["POST", "/devices/1/services/call", {}],
];

describe("POST /oauth/token", () => {
  it("issues Token_Details for the client credentials grant, form-encoded, with the default lifetimes", async () => {
    const response = await h.api.tokenRequest({
      grant_type: "client_credentials",
      client_id: CREDENTIALS.clientId,
      client_secret: CREDENTIALS.clientSecret,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: "Success", requestId: expect.any(String) });
    expect(response.body.data).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      expires_in: 3600,
      refresh_token_expires_in: 2592000,
    });
    expect(response.body.data.access_token).not.toBe(response.body.data.refresh_token);
  });

  it("rejects wrong credentials with 401 authentication_failed in the failure envelope", async () => {
    const response = await h.api.tokenRequest({
      grant_type: "client_credentials",
      client_id: CREDENTIALS.clientId,
      client_secret: "wrong",
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      status: "Failed",
      requestId: expect.stringMatching(/^[0-9a-f]{32}$/),
      errCode: "authentication_failed",
      errMsg: expect.any(String),
      data: null,
    });
  });

  it("rejects an unknown grant type and missing fields with 400 invalid_parameter", async () => {
    const badGrant = await h.api.tokenRequest({ grant_type: "password", client_id: "a", client_secret: "b" });
    const noSecret = await h.api.tokenRequest({
      grant_type: "client_credentials",
      client_id: CREDENTIALS.clientId,
    });
    const noRefresh = await h.api.tokenRequest({ grant_type: "refresh_token" });
    for (const response of [badGrant, noSecret, noRefresh]) {
      expect(response.status).toBe(400);
      expect(response.body.errCode).toBe("invalid_parameter");
    }
  });

  it("also accepts the client credentials as HTTP Basic auth", async () => {
    const basic = Buffer.from(`${CREDENTIALS.clientId}:${CREDENTIALS.clientSecret}`).toString("base64");
    const response = await h.api.tokenRequest(
      { grant_type: "client_credentials" },
      { authorization: `Basic ${basic}` },
    );
    expect(response.status).toBe(200);
  });
});

describe("bearer token on every device operation", () => {
  it.each(OPERATIONS)("%s %s without a token is 401 authentication_failed", async (method, path, body) => {
    const response = await h.api.call(method, path, body, { token: null });
    expect(response.status).toBe(401);
    expect(response.body.errCode).toBe("authentication_failed");
    expect(response.headers.get("www-authenticate")).toContain("Bearer");
  });

  it.each(OPERATIONS)("%s %s with an unknown token is 401", async (method, path, body) => {
    const response = await h.api.call(method, path, body, { token: "at.not-a-token" });
    expect(response.status).toBe(401);
    expect(response.body.errCode).toBe("authentication_failed");
  });

  it("checks the token before the body: a bad token with a bad body is still 401", async () => {
    const response = await h.api.call("POST", "/devices", undefined, { token: null, rawBody: "{not json" });
    expect(response.status).toBe(401);
  });

  it("accepts the discouraged access_token query parameter", async () => {
    const token = await h.api.token();
    const ok = await h.api.call(
      "POST",
      `/rps/search?access_token=${token}`,
      { pageNumber: 1, pageSize: 1 },
      { token: null },
    );
    expect(ok.status).toBe(200);
    const bad = await h.api.call(
      "POST",
      "/rps/search?access_token=nope",
      { pageNumber: 1, pageSize: 1 },
      { token: null },
    );
    expect(bad.status).toBe(401);
  });

  it("rejects an Authorization header that is not a bearer token", async () => {
    const response = await h.api.call(
      "POST",
      "/rps/search",
      { pageNumber: 1, pageSize: 1 },
      {
        token: null,
        headers: { authorization: `Basic ${Buffer.from("demo-client:demo-secret").toString("base64")}` },
      },
    );
    expect(response.status).toBe(401);
  });
});

describe("token expiry and refresh", () => {
  const search = { pageNumber: 1, pageSize: 1 };

  it("expires the access token after expires_in seconds of emulator clock", async () => {
    const { access_token } = await h.api.issueToken();
    await h.emulator.control.advanceClock(3599);
    expect((await h.api.call("POST", "/rps/search", search, { token: access_token })).status).toBe(200);
    await h.emulator.control.advanceClock(1);
    const expired = await h.api.call("POST", "/rps/search", search, { token: access_token });
    expect(expired.status).toBe(401);
    expect(expired.body.errMsg).toMatch(/expired/);
  });

  it("refreshes into a new access and refresh token; the old access token and refresh token stop working", async () => {
    const first = await h.api.issueToken();
    const refreshed = await h.api.tokenRequest({
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    const second = refreshed.body.data;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.expires_in).toBe(3600);
    expect((await h.api.call("POST", "/rps/search", search, { token: first.access_token })).status).toBe(401);
    expect((await h.api.call("POST", "/rps/search", search, { token: second.access_token })).status).toBe(
      200,
    );
    const reused = await h.api.tokenRequest({
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
    });
    expect(reused.status).toBe(401);
    expect(reused.body.errCode).toBe("authentication_failed");
  });

  it("refreshes after the access token expired, but not after the refresh token expired", async () => {
    const first = await h.api.issueToken();
    await h.emulator.control.advanceClock(7200);
    const refreshed = await h.api.tokenRequest({
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    await h.emulator.control.advanceClock(2592000);
    const late = await h.api.tokenRequest({
      grant_type: "refresh_token",
      refresh_token: refreshed.body.data.refresh_token,
    });
    expect(late.status).toBe(401);
  });

  it("keeps other tokens of the same client valid when one is refreshed", async () => {
    const a = await h.api.issueToken();
    const b = await h.api.issueToken();
    await h.api.tokenRequest({ grant_type: "refresh_token", refresh_token: a.refresh_token });
    expect((await h.api.call("POST", "/rps/search", search, { token: b.access_token })).status).toBe(200);
  });
});

describe("settable lifetimes and credentials", () => {
  it("uses tokenTtlSeconds, refreshTokenTtlSeconds and custom credentials", async () => {
    const emulator = await startEmulator({
      tokenTtlSeconds: 5,
      refreshTokenTtlSeconds: 20,
      clientId: "other-client",
      clientSecret: "other-secret",
    });
    try {
      const api = new PlatformApi(emulator.url);
      const demo = await api.tokenRequest({
        grant_type: "client_credentials",
        client_id: "demo-client",
        client_secret: "demo-secret",
      });
      expect(demo.status).toBe(401);
      const issued = await api.tokenRequest({
        grant_type: "client_credentials",
        client_id: "other-client",
        client_secret: "other-secret",
      });
      expect(issued.body.data).toMatchObject({ expires_in: 5, refresh_token_expires_in: 20 });
      const token = issued.body.data.access_token;
      expect((await api.call("POST", "/rps/search", { pageNumber: 1, pageSize: 1 }, { token })).status).toBe(
        200,
      );
      await emulator.control.advanceClock(5);
      expect((await api.call("POST", "/rps/search", { pageNumber: 1, pageSize: 1 }, { token })).status).toBe(
        401,
      );
    } finally {
      await emulator.stop();
    }
  });
});
