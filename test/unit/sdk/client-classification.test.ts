/**
 * HTTP 200 with `status: "Failed"` is handled by its errCode exactly as the same errCode over HTTP
 * (retries, token renewal, classes), and answers from the wrong server are configuration errors.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  ConfigurationError,
  DevicePlatformError,
  NotFoundError,
  ValidationError,
  clearTokenCache,
} from "../../../sdk";
import { FakePlatform, failed, ok, type FakeReply } from "./support/fake-platform";

const DEVICE = "/device/openapi/v1/devices/11";
const TASKS = "POST /device/openapi/v1/tasks";
const TOKEN = "POST /oauth/token";
let platform: FakePlatform;

beforeEach(() => {
  clearTokenCache();
  platform = new FakePlatform();
  platform.on(`GET ${DEVICE}`, () => ok({ deviceId: "11", sn: "24E1240000000011" }));
});
afterEach(() => platform.close());

/** HTTP 200 carrying the failure envelope. */
function failed200(errCode: string, errMsg = "m", headers: Record<string, string> = {}): FakeReply {
  return { ...failed(200, errCode, errMsg, "r-200"), headers };
}

const grants = () =>
  platform.requests
    .filter((r) => r.path === "/oauth/token")
    .map((r) => new URLSearchParams(r.body).get("grant_type"));

describe("HTTP 200 with status Failed", () => {
  it("rate_limited is retried like a 429, honouring Retry-After", async () => {
    platform.inject(`GET ${DEVICE}`, failed200("rate_limited", "slow", { "retry-after": "0.02" }));
    await expect(platform.client().getDevice("11")).resolves.toMatchObject({ deviceId: "11" });
    expect(platform.count(`GET ${DEVICE}`)).toBe(2);
    const retried = platform.events.find((e) => e.path === DEVICE && e.retryInMs !== undefined);
    expect(retried).toMatchObject({ status: 200, errorCode: "rate_limited", errCode: "rate_limited" });
    expect(retried?.retryInMs).toBe(20);
  });

  it("rate_limited is retried for unsafe writes too: nothing was performed", async () => {
    platform.on(TASKS, () => ok({ deviceTaskRelations: [{ deviceId: "1", taskId: "2" }] }));
    platform.inject(TASKS, failed200("rate_limited"));
    await expect(
      platform.client().createConfigTasks({ type: "TSL", deviceIds: ["1"], config: { properties: {} } }),
    ).resolves.toEqual([{ deviceId: "1", taskId: "2" }]);
    expect(platform.count(TASKS)).toBe(2);
  });

  it("internal_error and service_unavailable are retried for safe operations like 500 and 503", async () => {
    platform.inject(`GET ${DEVICE}`, failed200("internal_error"), failed200("service_unavailable"));
    await expect(platform.client().getDevice("11")).resolves.toMatchObject({ deviceId: "11" });
    expect(platform.count(`GET ${DEVICE}`)).toBe(3);
  });

  it("internal_error of Create Configuration Tasks is never sent twice", async () => {
    platform.on(TASKS, () => failed200("internal_error", "bug"));
    const error = (await platform
      .client()
      .createConfigTasks({ type: "TSL", deviceIds: ["1"], config: { properties: {} } })
      .catch((e: unknown) => e)) as DevicePlatformError;
    expect(error.code).toBe("server_error");
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toMatch(/^POST \/device\/openapi\/v1\/tasks failed: HTTP 200 internal_error: bug/);
    expect(platform.count(TASKS)).toBe(1);
  });

  it("authentication_failed renews the token once, like a 401, then repeats the request", async () => {
    const client = platform.client();
    await client.getDevice("11");
    platform.inject(`GET ${DEVICE}`, failed200("authentication_failed", "token expired"));
    await expect(client.getDevice("11")).resolves.toMatchObject({ deviceId: "11" });
    expect(grants()).toEqual(["client_credentials", "refresh_token"]);
    expect(platform.count(`GET ${DEVICE}`)).toBe(3);
  });

  it("authentication_failed twice gives up after one renewal", async () => {
    platform.on(`GET ${DEVICE}`, () => failed200("authentication_failed", "no access"));
    const error = (await platform
      .client()
      .getDevice("11")
      .catch((e: unknown) => e)) as DevicePlatformError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.attempts).toBe(2);
    expect(grants()).toEqual(["client_credentials", "refresh_token"]);
  });

  it("device_not_found is NotFoundError, not retried", async () => {
    platform.on(`GET ${DEVICE}`, () => failed200("device_not_found", "gone"));
    const error = await platform
      .client()
      .getDevice("11")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ resource: "device", status: 200, attempts: 1 });
  });

  it("an unknown errCode is request_failed, never retried", async () => {
    platform.on(`GET ${DEVICE}`, () => failed200("unknown_code", "what"));
    const error = (await platform
      .client()
      .getDevice("11")
      .catch((e: unknown) => e)) as DevicePlatformError;
    expect(error.constructor).toBe(DevicePlatformError);
    expect(error.code).toBe("request_failed");
    expect(error.message).toBe(
      `GET ${DEVICE} failed: HTTP 200 unknown_code: what (requestId r-200, 1 attempt)`,
    );
    expect(platform.count(`GET ${DEVICE}`)).toBe(1);
  });

  it("route_not_found is a configuration error naming the base URL", async () => {
    platform.on(`GET ${DEVICE}`, () => failed200("route_not_found", "no route"));
    const error = await platform
      .client()
      .getDevice("11")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain(`: ${platform.origin} does not look like`);
  });
});

describe("the token endpoint", () => {
  it("a 404 HTML page is a configuration error naming the base URL, sent once", async () => {
    platform.on(TOKEN, () => ({ status: 404, body: "<html><h1>404 Not Found</h1></html>" }));
    const error = (await platform
      .client()
      .getDevice("11")
      .catch((e: unknown) => e)) as DevicePlatformError;
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toBe(
      `POST /oauth/token failed: HTTP 404 (not the platform's response: "<html><h1>404 Not Found</h1></html>"): ` +
        `${platform.origin} does not look like the device platform's base URL; check devplatform:baseUrl ` +
        `(DEVPLATFORM_BASE_URL) and devplatform:apiVersion (the client's baseUrl and apiVersion options) (1 attempt)`,
    );
    expect(platform.count(TOKEN)).toBe(1);
    expect(platform.count(`GET ${DEVICE}`)).toBe(0);
  });

  it("a 200 that is neither the envelope nor a token is a configuration error", async () => {
    platform.on(TOKEN, () => ({ status: 200, body: { hello: "world" } }));
    await expect(platform.client().getDevice("11")).rejects.toBeInstanceOf(ConfigurationError);
    platform.on(TOKEN, () => ({ status: 200, body: "<html>Welcome</html>" }));
    await expect(platform.client().getDevice("11")).rejects.toBeInstanceOf(ConfigurationError);
  });

  it("an OAuth error body with 400 is refused credentials, not retried", async () => {
    platform.on(TOKEN, () => ({ status: 400, body: { error: "invalid_client", error_description: "who?" } }));
    const error = (await platform
      .client()
      .getDevice("11")
      .catch((e: unknown) => e)) as DevicePlatformError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toBe(
      "POST /oauth/token failed: HTTP 400 invalid_client: who?: the platform refused the client id and " +
        "secret: check devplatform:clientId (DEVPLATFORM_CLIENT_ID) and set the secret again with " +
        "`pulumi config set --secret devplatform:clientSecret` (or DEVPLATFORM_CLIENT_SECRET; the client's " +
        "clientId and clientSecret options) (1 attempt)",
    );
    expect(platform.count(TOKEN)).toBe(1);
  });

  it("a rejected refresh falls back to client credentials; a wrong server does not", async () => {
    const client = platform.client();
    await client.getDevice("11");
    platform.revokeAccessTokens();
    platform.inject(TOKEN, { status: 404, body: "<html>moved</html>" });
    await expect(client.getDevice("11")).rejects.toBeInstanceOf(ConfigurationError);
    expect(grants()).toEqual(["client_credentials", "refresh_token"]);
  });
});

describe("gone is decided by the platform's own code, whatever the HTTP status", () => {
  const RPS = "/device/openapi/v1/rps/24E1240000000011";

  it.each([200, 400, 404, 409, 500, 503])(
    "device_not_found with HTTP %i is NotFoundError about the device, sent once",
    async (status) => {
      platform.on(`GET ${DEVICE}`, () => failed(status, "device_not_found", "no such device"));
      const error = await platform
        .client()
        .getDevice("11")
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ resource: "device", status, errCode: "device_not_found", attempts: 1 });
      expect(platform.count(`GET ${DEVICE}`)).toBe(1);
    },
  );

  it.each([200, 400, 500])(
    "rps_record_not_found with HTTP %i is NotFoundError about the RPS record",
    async (status) => {
      platform.on(`DELETE ${RPS}`, () => failed(status, "rps_record_not_found", "no record"));
      const error = await platform
        .client()
        .deleteRpsProfile("24E1240000000011")
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ resource: "rps_record", status, attempts: 1 });
    },
  );

  it.each([
    [404, "route_not_found", ConfigurationError],
    [404, "some_other_code", ConfigurationError],
    [400, "invalid_parameter", ValidationError],
    [200, "device_not_foundish", DevicePlatformError],
  ] as const)("HTTP %i with %s is not gone", async (status, errCode, Class) => {
    platform.on(`GET ${DEVICE}`, () => failed(status, errCode, "m"));
    const error = await platform
      .client()
      .getDevice("11")
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(NotFoundError);
    expect((error as Error).constructor).toBe(Class);
  });

  it("a bare 404 without the envelope is never gone", async () => {
    platform.on(`GET ${DEVICE}`, () => ({ status: 404, body: { message: "device_not_found" } }));
    const error = await platform
      .client()
      .getDevice("11")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
  });
});
