import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  ConflictError,
  DevicePlatformError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TransportError,
  ValidationError,
  errorFromResponse,
} from "../../../sdk";
import { withNote } from "../../../sdk/errors";
import { registerSecret } from "../../../sdk/redact";

const where = { method: "PUT", path: "/device/openapi/v1/devices", attempts: 1 };

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

  it("maps statuses to classes with stable codes", () => {
    const cases: [number, new (...args: never[]) => DevicePlatformError, string][] = [
      [400, ValidationError, "invalid_request"],
      [401, AuthenticationError, "authentication_failed"],
      [404, NotFoundError, "not_found"],
      [409, ConflictError, "conflict"],
      [429, RateLimitError, "rate_limited"],
      [500, ServerError, "server_error"],
      [503, ServerError, "server_error"],
    ];
    for (const [status, Class, code] of cases) {
      const error = errorFromResponse({ ...where, attempts: 3, status, body: envelope("x", "y") });
      expect(error).toBeInstanceOf(Class);
      expect(error).toBeInstanceOf(DevicePlatformError);
      expect(error.code).toBe(code);
      expect(error.message).toContain("3 attempts");
    }
  });

  it("classifies HTTP 200 with status Failed by the platform's errCode", () => {
    expect(
      errorFromResponse({ ...where, status: 200, body: envelope("device_not_found", "gone") }),
    ).toBeInstanceOf(NotFoundError);
    expect(
      errorFromResponse({ ...where, status: 200, body: envelope("device_already_exists", "dup") }),
    ).toBeInstanceOf(ConflictError);
    const unknown = errorFromResponse({ ...where, status: 200, body: envelope("mystery", "?") });
    expect(unknown.constructor).toBe(DevicePlatformError);
    expect(unknown.code).toBe("request_failed");
  });

  it("describes a non-JSON body by a short excerpt", () => {
    const error = errorFromResponse({
      ...where,
      status: 502,
      body: undefined,
      bodyText: "<html>\n Bad   Gateway</html>",
    });
    expect(error.message).toBe(
      "PUT /device/openapi/v1/devices failed: HTTP 502: <html> Bad Gateway</html> (1 attempt)",
    );
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
