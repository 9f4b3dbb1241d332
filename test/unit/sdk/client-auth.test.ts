import { inspect } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AuthenticationError, DevicePlatformError, clearTokenCache } from "../../../sdk";
import { CLIENT_SECRET, FakePlatform, failed, ok } from "./support/fake-platform";

const DEVICE = "/device/openapi/v1/devices/9007199254740993";
let platform: FakePlatform;

beforeEach(() => {
  clearTokenCache();
  platform = new FakePlatform();
  platform.on(`GET ${DEVICE}`, () => ok({ deviceId: "9007199254740993", sn: "24E1240000000001" }));
});
afterEach(() => platform.close());

describe("authentication", () => {
  it("obtains a token with a form-encoded client-credentials POST and sends it only as a Bearer header", async () => {
    const client = platform.client();
    await client.getDevice("9007199254740993");
    const [tokenRequest, apiRequest] = platform.requests;
    expect(tokenRequest?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(tokenRequest?.headers.authorization).toBeUndefined();
    expect(Object.fromEntries(new URLSearchParams(tokenRequest?.body))).toEqual({
      grant_type: "client_credentials",
      client_id: "unit-client",
      client_secret: CLIENT_SECRET,
    });
    expect(apiRequest?.headers.authorization).toBe("Bearer at-1-f00dface");
    expect(apiRequest?.path).not.toContain("access_token");
  });

  it("shares one token request between 50 concurrent callers of two clients", async () => {
    const [a, b] = [platform.client(), platform.client()];
    await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).getDevice("9007199254740993")));
    expect(platform.count("POST /oauth/token")).toBe(1);
    expect(platform.count(`GET ${DEVICE}`)).toBe(50);
  });

  it("accepts a bare token body without the envelope", async () => {
    platform.bareTokens = true;
    await expect(platform.client().getDevice("9007199254740993")).resolves.toMatchObject({
      sn: "24E1240000000001",
    });
  });

  it("on 401 refreshes the token once and repeats the request", async () => {
    const client = platform.client();
    await client.getDevice("9007199254740993");
    platform.revokeAccessTokens();
    await client.getDevice("9007199254740993");
    const tokenGrants = platform.requests
      .filter((r) => r.path === "/oauth/token")
      .map((r) => new URLSearchParams(r.body).get("grant_type"));
    expect(tokenGrants).toEqual(["client_credentials", "refresh_token"]);
    expect(platform.count(`GET ${DEVICE}`)).toBe(3);
    const retried = platform.events.find((e) => e.status === 401);
    expect(retried).toMatchObject({ errorCode: "authentication_failed", retryInMs: 0, attempt: 1 });
  });

  it("after 401 with many callers, refreshes once for all of them", async () => {
    const client = platform.client();
    await client.getDevice("9007199254740993");
    platform.revokeAccessTokens();
    await Promise.all(Array.from({ length: 20 }, () => client.getDevice("9007199254740993")));
    expect(platform.count("POST /oauth/token")).toBe(2);
  });

  it("when the refresh token is rejected, uses client credentials again", async () => {
    const client = platform.client();
    await client.getDevice("9007199254740993");
    platform.revokeAccessTokens();
    platform.validRefreshTokens.clear();
    await client.getDevice("9007199254740993");
    const tokenGrants = platform.requests
      .filter((r) => r.path === "/oauth/token")
      .map((r) => new URLSearchParams(r.body).get("grant_type"));
    expect(tokenGrants).toEqual(["client_credentials", "refresh_token", "client_credentials"]);
  });

  it("gives up after one refresh when the platform keeps answering 401", async () => {
    platform.on(`GET ${DEVICE}`, () => failed(401, "authentication_failed", "no access"));
    const error = await platform
      .client()
      .getDevice("9007199254740993")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as DevicePlatformError).attempts).toBe(2);
    expect(platform.count(`GET ${DEVICE}`)).toBe(2);
  });

  it("rejected client credentials fail at once, and the error holds no secret", async () => {
    platform.on("POST /oauth/token", (request) =>
      failed(401, "authentication_failed", `unknown client; body was ${request.body}`),
    );
    const error = await platform
      .client()
      .getDevice("9007199254740993")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(platform.count("POST /oauth/token")).toBe(1);
    const err = error as AuthenticationError;
    for (const view of [err.message, JSON.stringify(err), inspect(err, { depth: 5 }), err.errMsg ?? ""]) {
      expect(view).not.toContain(CLIENT_SECRET);
    }
    expect(err.message).toMatch(/^POST \/oauth\/token failed: HTTP 401 authentication_failed: /);
  });

  it("never puts tokens into events or errors", async () => {
    platform.on(`GET ${DEVICE}`, (request) =>
      failed(400, "invalid_parameter", `rejected ${request.headers.authorization}`),
    );
    const error = (await platform
      .client()
      .getDevice("9007199254740993")
      .catch((e: unknown) => e)) as Error;
    expect(error.message).toContain("rejected Bearer [REDACTED]");
    expect(error.message).not.toContain("at-1-f00dface");
    expect(JSON.stringify(platform.events)).not.toMatch(/at-1-f00dface|rt-1-deadbeef|unit-secret/);
  });

  it("a client with a wrong secret asks for its own token and fails, never borrowing another's", async () => {
    const right = platform.client();
    const wrong = platform.client({ clientSecret: "a-wrong-secret-value" });
    await right.getDevice("9007199254740993");
    const error = (await wrong.getDevice("9007199254740993").catch((e: unknown) => e)) as DevicePlatformError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.errCode).toBe("authentication_failed");
    expect(error.path).toBe("/oauth/token");
    expect(platform.count("POST /oauth/token")).toBe(2);
    expect(platform.count(`GET ${DEVICE}`)).toBe(1);
    // The right client still has its token: no further token request.
    await right.getDevice("9007199254740993");
    expect(platform.count("POST /oauth/token")).toBe(2);
  });

  it("keeps the client secret redacted after 300 token rotations", async () => {
    const client = platform.client();
    for (let i = 0; i < 300; i += 1) {
      platform.revokeAccessTokens();
      await client.getDevice("9007199254740993");
    }
    expect(platform.count("POST /oauth/token")).toBe(300);
    platform.on(`GET ${DEVICE}`, () => failed(400, "invalid_parameter", `secret was ${CLIENT_SECRET}`));
    const error = (await client
      .getDevice("9007199254740993")
      .catch((e: unknown) => e)) as DevicePlatformError;
    expect(error.errMsg).toBe("secret was [REDACTED]");
    for (const view of [error.message, JSON.stringify(error), inspect(error, { depth: 5 })]) {
      expect(view).not.toContain(CLIENT_SECRET);
    }
  });
});
