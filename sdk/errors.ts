/**
 * The SDK's error hierarchy. One factory, `errorFromResponse` (classify-response.ts), maps a failed
 * response to a class by what the platform said: the HTTP status and the exact errCode
 * (platform-err-codes.ts), and whether the body is the platform's envelope at all (if not, a
 * {@link ConfigurationError}). Transport failures and malformed success data have their own classes. Every error is
 * redacted in its constructor — message, properties and cause — so that no token, refresh token or
 * client secret can leak through logs, `JSON.stringify` or `util.inspect`.
 */
import { missingResourceOf, type MissingResource } from "./platform-err-codes";
import { redactOptional, redactText } from "./redact";
import { transportAdvice } from "./transport-advice";

/** Stable, documented error codes; match on these rather than on class names or messages. */
export type DevicePlatformErrorCode =
  | "request_failed"
  | "authentication_failed"
  | "not_found"
  | "conflict"
  | "invalid_request"
  | "rate_limited"
  | "quota_exhausted"
  | "server_error"
  | "transport_error"
  | "unexpected_response"
  | "configuration_error"
  | "serial_number_mismatch";

/** What is known about a failed request; every text field is redacted on construction. */
export interface DevicePlatformErrorInit {
  /** HTTP method of the operation, e.g. `PUT`. */
  readonly method: string;
  /** Request path, e.g. `/device/openapi/v1/devices`. */
  readonly path: string;
  /** Number of attempts made, including retries. */
  readonly attempts: number;
  /** HTTP status of the last response; absent when no response arrived. */
  readonly status?: number;
  /** The platform's `errCode`, e.g. `device_not_found`. */
  readonly errCode?: string;
  /** The platform's `errMsg`. */
  readonly errMsg?: string;
  /** The platform's `requestId`, for locating the request on the platform side. */
  readonly requestId?: string;
  /** What went wrong when there is no platform message (a reset, a timeout, a malformed body). */
  readonly reason?: string;
  /** True when a write may or may not have been performed and was deliberately not repeated. */
  readonly outcomeUnknown?: boolean;
  /** A sentence appended to the message, e.g. what an operation had already done. */
  readonly note?: string;
  /** The underlying error; stored as a redacted copy. */
  readonly cause?: unknown;
  /** Base URL of the client that sent the request (options refuse URLs with credentials). */
  readonly baseUrl?: string;
}

/** Base class of every error the SDK throws for a platform operation. */
export class DevicePlatformError extends Error {
  /** Stable machine-readable code. */
  readonly code: DevicePlatformErrorCode = "request_failed";
  readonly status: number | undefined;
  readonly errCode: string | undefined;
  readonly errMsg: string | undefined;
  readonly requestId: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly attempts: number;
  /** True when a write may have been performed although the SDK could not confirm it. */
  readonly outcomeUnknown: boolean;
  /** What went wrong when there was no platform message, e.g. `connection reset (ECONNRESET)`. */
  readonly reason: string | undefined;
  /** Extra context appended to the message. */
  readonly note: string | undefined;
  /** Base URL of the client that sent the request, when known. */
  readonly baseUrl: string | undefined;

  constructor(init: DevicePlatformErrorInit) {
    super(buildMessage(init, new.target.advice(init)), { cause: sanitizeCause(init.cause) });
    this.name = new.target.name;
    this.status = init.status;
    this.errCode = redactOptional(init.errCode);
    this.errMsg = redactOptional(init.errMsg);
    this.requestId = redactOptional(init.requestId);
    this.method = init.method;
    this.path = redactText(init.path);
    this.attempts = init.attempts;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.reason = redactOptional(init.reason);
    this.note = redactOptional(init.note);
    this.baseUrl = redactOptional(init.baseUrl);
  }

  /**
   * What the user should check, placed in the message right after the failure; none by default.
   * Subclasses whose failures have one known remedy override it.
   */
  protected static advice(_init: DevicePlatformErrorInit): string | undefined {
    return undefined;
  }

  /** A plain, secret-free representation for structured logs. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      status: this.status,
      errCode: this.errCode,
      errMsg: this.errMsg,
      requestId: this.requestId,
      method: this.method,
      path: this.path,
      attempts: this.attempts,
      outcomeUnknown: this.outcomeUnknown,
      baseUrl: this.baseUrl,
    };
  }
}

/** 401/403 or `authentication_failed` (after one token renewal), or credentials the token endpoint refused. */
export class AuthenticationError extends DevicePlatformError {
  override readonly code = "authentication_failed";

  /** Names the settings and the command that fix the credentials. */
  protected static override advice(init: DevicePlatformErrorInit): string {
    if (init.path === TOKEN_PATH) {
      return (
        "the platform refused the client id and secret: check devplatform:clientId " +
        "(DEVPLATFORM_CLIENT_ID) and set the secret again with " +
        "`pulumi config set --secret devplatform:clientSecret` (or DEVPLATFORM_CLIENT_SECRET; the " +
        "client's clientId and clientSecret options)"
      );
    }
    return (
      "the platform refused this application's access token even after renewing it: check that " +
      "devplatform:clientId (DEVPLATFORM_CLIENT_ID) names the application that manages these devices"
    );
  }
}

/** The OAuth token endpoint's path, relative to the base URL. */
const TOKEN_PATH = "/oauth/token";

/**
 * The object is gone: HTTP 404 (or HTTP 200 with `status: "Failed"`) whose errCode is exactly
 * `device_not_found` or `rps_record_not_found`. Nothing else is a `NotFoundError` — a 404 from the
 * wrong server or for an unknown endpoint is a {@link ConfigurationError} — so callers may safely
 * drop the object from state. A DELETE retried after an ambiguous first attempt can also end here
 * when the first attempt did delete; callers that treat "already gone" as success decide that.
 */
export class NotFoundError extends DevicePlatformError {
  override readonly code = "not_found";
  /** Which kind of object is gone, from the errCode (`device` when none was given). */
  readonly resource: MissingResource;

  constructor(init: DevicePlatformErrorInit) {
    super(init);
    this.resource = missingResourceOf(init.errCode) ?? "device";
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), resource: this.resource };
  }
}

/** 409 or one of the platform's conflict codes: the serial number is taken, or held by an RPS record. */
export class ConflictError extends DevicePlatformError {
  override readonly code = "conflict";
}

/** 400/422 or `invalid_parameter`, or input the SDK refused before sending. */
export class ValidationError extends DevicePlatformError {
  override readonly code = "invalid_request";
}

/** 429 or `rate_limited`, after the retry budget was spent. */
export class RateLimitError extends DevicePlatformError {
  override readonly code = "rate_limited";
}

/**
 * 429 (or HTTP 200 with `status: "Failed"`) whose errCode is exactly `quota_exhausted`: the
 * application's daily request quota is spent. Not performed, and never retried: it would not clear
 * for hours. Carries the platform's errMsg and requestId like every error.
 */
export class QuotaExhaustedError extends DevicePlatformError {
  override readonly code = "quota_exhausted";

  protected static override advice(): string {
    return "the application's daily request quota is spent; not retried, it renews the next day";
  }
}

/**
 * A request a client with `haltWhenQuotaExhausted` did not send, because it had halted on an earlier
 * refusal for the spent daily quota — its own, or another client's of the same job (see
 * `QuotaHaltShare`). `method` and `path` name the request not sent; `status`, `errCode`, `errMsg`
 * and `requestId` repeat the refusal. `attempts` counts the attempts this operation had made before
 * (a retry halted after a 503 has made one), so only the class says that this one was not sent.
 */
export class QuotaHaltedError extends QuotaExhaustedError {}

/**
 * 5xx, `internal_error`, `service_unavailable` or `not_implemented`: after the retry budget was
 * spent, or at once for writes that must not be repeated (then `outcomeUnknown` is true).
 */
export class ServerError extends DevicePlatformError {
  override readonly code = "server_error";
}

/** No HTTP response: connection refused or reset, timeouts. */
export class TransportError extends DevicePlatformError {
  override readonly code = "transport_error";

  /** Names the host, the setting it comes from, and what to check for this kind of failure. */
  protected static override advice(init: DevicePlatformErrorInit): string | undefined {
    return transportAdvice(init.reason, init.baseUrl);
  }
}

/** The platform's success envelope, whose `data` does not have the documented shape. */
export class ResponseShapeError extends DevicePlatformError {
  override readonly code = "unexpected_response";
}

/**
 * Delete a Device answered with the serial number of a device other than the one the caller
 * expected to delete (the answer's `data` is the deleted device's serial number). The delete was
 * performed: what was deleted is not what was meant, so the caller must look before going on.
 */
export class SerialNumberMismatchError extends DevicePlatformError {
  override readonly code = "serial_number_mismatch";
}

/**
 * The answer did not come from the device platform (an HTML page, another service's JSON, a body
 * without the envelope), or the platform has no such endpoint (`route_not_found`): the base URL or
 * the API version is wrong. It never means an object is gone, so nothing may be dropped from state
 * or deleted because of it. The message names the base URL and the settings to check.
 */
export class ConfigurationError extends DevicePlatformError {
  override readonly code = "configuration_error";

  protected static override advice(init: DevicePlatformErrorInit): string {
    const where = init.baseUrl ?? "the base URL";
    return (
      `${where} does not look like the device platform's base URL; check devplatform:baseUrl ` +
      `(DEVPLATFORM_BASE_URL) and devplatform:apiVersion (the client's baseUrl and apiVersion options)`
    );
  }
}

/** A class of the hierarchy, as the classification and {@link withNote} build one. */
export type ErrorClass = new (init: DevicePlatformErrorInit) => DevicePlatformError;

/**
 * A copy of `error`, same class, with `note` appended to its message; `outcomeUnknown` overrides the
 * original flag when given. Used where an operation knows more than the request that failed.
 */
export function withNote(
  error: DevicePlatformError,
  note: string,
  outcomeUnknown?: boolean,
): DevicePlatformError {
  const Class = error.constructor as ErrorClass;
  return new Class({
    method: error.method,
    path: error.path,
    attempts: error.attempts,
    status: error.status,
    errCode: error.errCode,
    errMsg: error.errMsg,
    requestId: error.requestId,
    reason: error.reason,
    note: error.note ? `${error.note}. ${note}` : note,
    outcomeUnknown: outcomeUnknown ?? error.outcomeUnknown,
    cause: error.cause,
    baseUrl: error.baseUrl,
  });
}

/** The request context {@link errorFromResponse} needs besides the response itself. */
function buildMessage(init: DevicePlatformErrorInit, advice: string | undefined): string {
  const detail =
    init.status !== undefined
      ? `HTTP ${init.status}${init.errCode ? ` ${init.errCode}` : ""}${init.errMsg ? `: ${init.errMsg}` : ""}`
      : (init.reason ?? "request failed");
  const reasonSuffix = init.status !== undefined && init.reason ? ` (${init.reason})` : "";
  const attempts = `${init.attempts} attempt${init.attempts === 1 ? "" : "s"}`;
  const extras = init.requestId ? `requestId ${init.requestId}, ${attempts}` : attempts;
  const adviceText = advice ? `: ${advice}` : "";
  const note = init.note ? `. ${init.note}` : "";
  return redactText(
    `${init.method} ${init.path} failed: ${detail}${reasonSuffix}${adviceText} (${extras})${note}`,
  );
}

/**
 * A redacted stand-in for the original cause: same name, message (redacted) and `code`, none of the
 * original's other properties (undici errors can carry request details).
 */
function sanitizeCause(cause: unknown): Error | undefined {
  if (cause === undefined || cause === null) return undefined;
  const source = cause instanceof Error ? cause : new Error(String(cause));
  const copy = new Error(redactText(source.message));
  copy.name = source.name;
  const code = (source as { code?: unknown }).code;
  if (typeof code === "string") Object.assign(copy, { code });
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}
