import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { ErrCode } from "../../../emulator/http/err-codes";
import {
  AuthenticationError,
  ConfigurationError,
  ConflictError,
  DevicePlatformError,
  NotFoundError,
  QuotaExhaustedError,
  RateLimitError,
  ServerError,
  TransportError,
  ValidationError,
  errorFromResponse,
} from "../../../sdk";
import { withNote } from "../../../sdk/errors";
import { PLATFORM_ERR_CODES } from "../../../sdk/platform-err-codes";
import { registerSecret } from "../../../sdk/redact";

type ErrorClass = new (...args: never[]) => DevicePlatformError;
const where = { method: "PUT", path: "/device/openapi/v1/devices", attempts: 1 };
const BASE_URL = "https://platform.example.com";
const ADVICE =
  "does not look like the device platform's base URL; check devplatform:baseUrl (DEVPLATFORM_BASE_URL) and devplatform:apiVersion " +
  "(the client's baseUrl and apiVersion options)";

function envelope(errCode: string, errMsg: string, requestId = "r-abc") {
  return { status: "Failed", requestId, errCode, errMsg, data: null };
}

describe("errorFromResponse", () => {
  it("formats the message with method, path, status, platform code and message, requestId and attempts", () => {
    const error = errorFromResponse({
      ...where,
      status: 404,
      body: envelope("device_not_found", "Device 123 not found"),
    });
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe(
      "PUT /device/openapi/v1/devices failed: HTTP 404 device_not_found: Device 123 not found (requestId r-abc, 1 attempt)",
    );
    expect(error).toMatchObject({
      code: "not_found",
      status: 404,
      errCode: "device_not_found",
      errMsg: "Device 123 not found",
      requestId: "r-abc",
      method: "PUT",
      path: "/device/openapi/v1/devices",
      attempts: 1,
    });
  });

  it("maps statuses with the platform's envelope to classes with stable codes", () => {
    const cases: [number, string, ErrorClass, string][] = [
      [400, "invalid_parameter", ValidationError, "invalid_request"],
      [401, "authentication_failed", AuthenticationError, "authentication_failed"],
      [404, "device_not_found", NotFoundError, "not_found"],
      [404, "rps_record_not_found", NotFoundError, "not_found"],
      [409, "device_already_exists", ConflictError, "conflict"],
      [409, "something_new", ConflictError, "conflict"],
      [429, "rate_limited", RateLimitError, "rate_limited"],
      [500, "internal_error", ServerError, "server_error"],
      [503, "service_unavailable", ServerError, "server_error"],
      [502, "whatever", ServerError, "server_error"],
    ];
    for (const [status, errCode, Class, code] of cases) {
      const error = errorFromResponse({ ...where, attempts: 3, status, body: envelope(errCode, "y") });
      expect(error, `${status} ${errCode}`).toBeInstanceOf(Class);
      expect(error).toBeInstanceOf(DevicePlatformError);
      expect(error.code).toBe(code);
      expect(error.message).toContain("3 attempts");
    }
  });

  it("says which object is gone: a device or an RPS record", () => {
    const device = errorFromResponse({ ...where, status: 404, body: envelope("device_not_found", "x") });
    const record = errorFromResponse({ ...where, status: 404, body: envelope("rps_record_not_found", "x") });
    expect((device as NotFoundError).resource).toBe("device");
    expect((record as NotFoundError).resource).toBe("rps_record");
    expect(JSON.parse(JSON.stringify(record))).toMatchObject({ code: "not_found", resource: "rps_record" });
    expect((withNote(record, "noted") as NotFoundError).resource).toBe("rps_record");
  });

  it("reads a 404 that is not device_not_found or rps_record_not_found as a configuration error", () => {
    for (const errCode of ["route_not_found", "not_found", "device_not_found_anywhere", "mystery"]) {
      const error = errorFromResponse({
        ...where,
        baseUrl: BASE_URL,
        status: 404,
        body: envelope(errCode, "no"),
      });
      expect(error, errCode).toBeInstanceOf(ConfigurationError);
      expect(error).not.toBeInstanceOf(NotFoundError);
      expect(error.code).toBe("configuration_error");
      expect(error.message).toBe(
        `PUT /device/openapi/v1/devices failed: HTTP 404 ${errCode}: no: ${BASE_URL} ${ADVICE} (requestId r-abc, 1 attempt)`,
      );
    }
  });

  it("names the base URL and the settings to check in a configuration error", () => {
    const error = errorFromResponse({
      method: "GET",
      path: "/device/openapi/v1/devices/1",
      attempts: 1,
      baseUrl: "http://127.0.0.1:4123",
      status: 404,
      body: undefined,
      bodyText: "<html><body><h1>Not Found</h1></body></html>",
    });
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toBe(
      `GET /device/openapi/v1/devices/1 failed: HTTP 404 (not the platform's response: ` +
        `"<html><body><h1>Not Found</h1></body></html>"): http://127.0.0.1:4123 ${ADVICE} (1 attempt)`,
    );
    expect(error.baseUrl).toBe("http://127.0.0.1:4123");
    const noted = withNote(error, "nothing was changed");
    expect(noted).toBeInstanceOf(ConfigurationError);
    expect(noted.baseUrl).toBe("http://127.0.0.1:4123");
    expect(noted.message).toBe(`${error.message}. nothing was changed`);
  });

  it("reads any failure without the envelope but 429 and a gateway's 500/502/503/504 as a configuration error (an HTML 501 too)", () => {
    const bodies: [unknown, string][] = [
      [undefined, "<html>Forbidden</html>"],
      [undefined, ""],
      [{ timestamp: 1, status: 404, error: "Not Found" }, '{"timestamp":1,"status":404,"error":"Not Found"}'],
      [{ status: "Success", data: null }, '{"status":"Success","data":null}'],
    ];
    for (const status of [301, 400, 401, 403, 404, 405, 409, 501, 505]) {
      for (const [body, bodyText] of bodies) {
        const error = errorFromResponse({ ...where, baseUrl: BASE_URL, status, body, bodyText });
        expect(error, `${status} ${bodyText}`).toBeInstanceOf(ConfigurationError);
        expect(error.message).toContain("not the platform's response");
        expect(error.message).toContain(`${BASE_URL} ${ADVICE}`);
        expect(error.errCode).toBeUndefined();
      }
    }
    expect(errorFromResponse({ ...where, status: 401, body: undefined, bodyText: "" }).message).toContain(
      "HTTP 401 (not the platform's response: empty body): the base URL does not look like",
    );
  });

  it("keeps 429 and 5xx without the envelope as rate-limit and server errors (retried)", () => {
    const html = { body: undefined, bodyText: "<html>Bad Gateway</html>" };
    expect(errorFromResponse({ ...where, status: 429, ...html })).toBeInstanceOf(RateLimitError);
    for (const status of [500, 502, 503, 504])
      expect(errorFromResponse({ ...where, status, ...html })).toBeInstanceOf(ServerError);
  });

  it("describes a body that is not the platform's envelope by a short excerpt", () => {
    const error = errorFromResponse({
      ...where,
      status: 502,
      body: undefined,
      bodyText: `<html>\n Bad   Gateway ${"x".repeat(200)}</html>`,
    });
    expect(error.message).toBe(
      `PUT /device/openapi/v1/devices failed: HTTP 502 (not the platform's response: ` +
        `"<html> Bad Gateway ${"x".repeat(101)}…") (1 attempt)`,
    );
    expect(error.errMsg).toBeUndefined();
  });

  it("reads a 2xx body that is not the envelope as a configuration error for a read", () => {
    const error = errorFromResponse({
      ...where,
      method: "GET",
      baseUrl: BASE_URL,
      status: 200,
      body: undefined,
      bodyText: "<!doctype html><title>Welcome to nginx!</title>",
    });
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toMatch(/HTTP 200 \(not the platform's response: "<!doctype html>/);
  });

  it("classifies the token endpoint: 400/401 refused, 429/5xx transient, the rest configuration", () => {
    const token = {
      method: "POST",
      path: "/oauth/token",
      attempts: 1,
      baseUrl: BASE_URL,
      tokenEndpoint: true,
    };
    const html = { body: undefined, bodyText: "<html>x</html>" };
    const oauth = { body: { error: "invalid_grant", error_description: "expired" }, bodyText: "{}" };
    const platform = (errCode: string) => ({ body: envelope(errCode, "m"), bodyText: "" });
    const cases: [number, { body: unknown; bodyText: string }, ErrorClass][] = [
      [401, html, AuthenticationError],
      [401, platform("authentication_failed"), AuthenticationError],
      [400, oauth, AuthenticationError],
      [400, platform("invalid_parameter"), ValidationError],
      [429, html, RateLimitError],
      [500, html, ServerError],
      [503, platform("service_unavailable"), ServerError],
      [404, html, ConfigurationError],
      [404, platform("route_not_found"), ConfigurationError],
      [404, platform("device_not_found"), ConfigurationError],
      [403, platform("authentication_failed"), ConfigurationError],
      [405, oauth, ConfigurationError],
      [200, html, ConfigurationError],
      [200, platform("authentication_failed"), AuthenticationError],
      [200, platform("route_not_found"), ConfigurationError],
    ];
    for (const [status, body, Class] of cases) {
      const error = errorFromResponse({ ...token, status, ...body });
      expect(error, `${status} ${JSON.stringify(body)}`).toBeInstanceOf(Class);
    }
    expect(errorFromResponse({ ...token, status: 400, ...oauth }).message).toBe(
      "POST /oauth/token failed: HTTP 400 invalid_grant: expired: the platform refused the client id " +
        "and secret: check devplatform:clientId (DEVPLATFORM_CLIENT_ID) and set the secret again with " +
        "`pulumi config set --secret devplatform:clientSecret` (or DEVPLATFORM_CLIENT_SECRET; the client's " +
        "clientId and clientSecret options) (1 attempt)",
    );
  });
});

describe("HTTP 200 with status Failed", () => {
  it("is classified by its exact errCode, as the same errCode over HTTP", () => {
    const cases: [string, ErrorClass, string][] = [
      ["authentication_failed", AuthenticationError, "authentication_failed"],
      ["invalid_parameter", ValidationError, "invalid_request"],
      ["device_not_found", NotFoundError, "not_found"],
      ["rps_record_not_found", NotFoundError, "not_found"],
      ["route_not_found", ConfigurationError, "configuration_error"],
      ["device_already_exists", ConflictError, "conflict"],
      ["device_in_other_application", ConflictError, "conflict"],
      ["rps_record_exists", ConflictError, "conflict"],
      ["device_on_platform", ConflictError, "conflict"],
      ["rate_limited", RateLimitError, "rate_limited"],
      ["quota_exhausted", QuotaExhaustedError, "quota_exhausted"],
      ["internal_error", ServerError, "server_error"],
      ["not_implemented", ServerError, "server_error"],
      ["service_unavailable", ServerError, "server_error"],
    ];
    expect(cases.map(([errCode]) => errCode).sort()).toEqual(Object.keys(PLATFORM_ERR_CODES).sort());
    for (const [errCode, Class, code] of cases) {
      const error = errorFromResponse({
        ...where,
        baseUrl: BASE_URL,
        status: 200,
        body: envelope(errCode, "m"),
      });
      expect(error, errCode).toBeInstanceOf(Class);
      expect(error.code).toBe(code);
      const advice =
        Class === ConfigurationError
          ? `: ${BASE_URL} ${ADVICE}`
          : Class === QuotaExhaustedError
            ? ": the application's daily request quota is spent; not retried, it renews the next day"
            : Class === AuthenticationError
              ? ": the platform refused this application's access token even after renewing it: check " +
                "that devplatform:clientId (DEVPLATFORM_CLIENT_ID) names the application that manages these devices"
              : "";
      expect(error.message).toBe(
        `PUT /device/openapi/v1/devices failed: HTTP 200 ${errCode}: m${advice} (requestId r-abc, 1 attempt)`,
      );
    }
  });

  it("never guesses from parts of an errCode: unknown codes are request_failed", () => {
    const lookalikes = [
      "mystery",
      "token_expired",
      "device_notfound",
      "rate_limit",
      "Device_Not_Found",
      "conflict",
    ];
    for (const errCode of lookalikes) {
      const error = errorFromResponse({ ...where, status: 200, body: envelope(errCode, "?") });
      expect(error.constructor, errCode).toBe(DevicePlatformError);
      expect(error.code).toBe("request_failed");
    }
  });

  it("knows every errCode the emulator sends", () => {
    expect(Object.keys(PLATFORM_ERR_CODES).sort()).toEqual(Object.values(ErrCode).sort());
  });
});

describe("redaction", () => {
  const token = "eyJhbGciOi.token-value-123";
  const refresh = "refresh-value-456789";
  const secret = "client-secret-abcdef";

  it("removes tokens, refresh tokens and the client secret from message, properties, cause, JSON and inspect", () => {
    registerSecret(secret);
    const error = new TransportError({
      method: "GET",
      path: `/device/openapi/v1/devices/1?access_token=${token}`,
      attempts: 2,
      reason: `connection reset while sending Bearer ${token}`,
      errMsg: `server said refresh_token=${refresh}&client_secret=${secret}`,
      cause: Object.assign(new Error(`socket error {"access_token":"${token}"}`), {
        code: "ECONNRESET",
        headers: { authorization: `Bearer ${token}` },
      }),
    });
    const views = [
      error.message,
      error.stack ?? "",
      error.path,
      error.errMsg ?? "",
      JSON.stringify(error),
      inspect(error, { depth: 10, showHidden: true }),
      String((error.cause as Error).message),
    ];
    for (const view of views) {
      expect(view).not.toContain(token);
      expect(view).not.toContain(refresh);
      expect(view).not.toContain(secret);
    }
    expect(error.path).toBe("/device/openapi/v1/devices/1?access_token=[REDACTED]");
    expect((error.cause as { code?: string }).code).toBe("ECONNRESET");
    expect((error.cause as { headers?: unknown }).headers).toBeUndefined();
  });

  it("removes registered secrets that appear in arbitrary server text", () => {
    registerSecret(token);
    const error = errorFromResponse({
      ...where,
      status: 400,
      body: envelope("invalid_parameter", `bad value ${token}`),
    });
    expect(error.message).not.toContain(token);
    expect(error.errMsg).toBe("bad value [REDACTED]");
  });
});

describe("withNote", () => {
  it("keeps class and fields and appends the note", () => {
    const original = errorFromResponse({
      ...where,
      method: "POST",
      status: 502,
      body: envelope("bad_gateway", "upstream"),
    });
    const noted = withNote(original, "the tasks may have been created", true);
    expect(noted).toBeInstanceOf(ServerError);
    expect(noted.outcomeUnknown).toBe(true);
    expect(noted.message).toMatch(
      /HTTP 502 bad_gateway: upstream \(requestId r-abc, 1 attempt\)\. the tasks may have been created$/,
    );
  });
});
