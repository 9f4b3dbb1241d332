/**
 * The SDK's error hierarchy. One factory, {@link errorFromResponse}, maps a platform response to a
 * class; transport failures and malformed responses have their own classes. Every error is
 * redacted in its constructor — message, properties and cause — so that no token, refresh token or
 * client secret can leak through logs, `JSON.stringify` or `util.inspect`.
 */
import { redactOptional, redactText } from "./redact";

/** Stable, documented error codes; match on these rather than on class names or messages. */
export type DevicePlatformErrorCode =
  | "request_failed"
  | "authentication_failed"
  | "not_found"
  | "conflict"
  | "invalid_request"
  | "rate_limited"
  | "server_error"
  | "transport_error"
  | "unexpected_response";

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

  constructor(init: DevicePlatformErrorInit) {
    super(buildMessage(init), { cause: sanitizeCause(init.cause) });
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
    };
  }
}

/** 401/403, or credentials the token endpoint rejected. */
export class AuthenticationError extends DevicePlatformError {
  override readonly code = "authentication_failed";
}

/**
 * 404: unknown device or RPS record. A DELETE retried after an ambiguous first attempt can also end
 * here when the first attempt did delete; callers that treat "already gone" as success decide that.
 */
export class NotFoundError extends DevicePlatformError {
  override readonly code = "not_found";
}

/** 409: serial number already on the platform, or held by an RPS record. */
export class ConflictError extends DevicePlatformError {
  override readonly code = "conflict";
}

/** 400/422, or input the SDK refused before sending. */
export class ValidationError extends DevicePlatformError {
  override readonly code = "invalid_request";
}

/** 429 after the retry budget was spent. */
export class RateLimitError extends DevicePlatformError {
  override readonly code = "rate_limited";
}

/** 5xx after the retry budget was spent (or at once for writes that must not be repeated). */
export class ServerError extends DevicePlatformError {
  override readonly code = "server_error";
}

/** No HTTP response: connection refused or reset, timeouts. */
export class TransportError extends DevicePlatformError {
  override readonly code = "transport_error";
}

/** A response that is not JSON or does not have the documented shape. */
export class ResponseShapeError extends DevicePlatformError {
  override readonly code = "unexpected_response";
}

type ErrorClass = new (init: DevicePlatformErrorInit) => DevicePlatformError;

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
  });
}

/** The request context {@link errorFromResponse} needs besides the response itself. */
export interface ResponseErrorContext {
  readonly method: string;
  readonly path: string;
  readonly attempts: number;
  readonly status: number;
  /** The response body as parsed JSON, if it was JSON. */
  readonly body: unknown;
  /** The raw body text, used when the body is not a JSON envelope. */
  readonly bodyText?: string;
  /** Fallback request id from a response header. */
  readonly headerRequestId?: string;
  readonly outcomeUnknown?: boolean;
  readonly note?: string;
}

/** Maps a failed response (HTTP error, or HTTP 200 with `status: "Failed"`) to an error. */
export function errorFromResponse(ctx: ResponseErrorContext): DevicePlatformError {
  const envelope = readFailureEnvelope(ctx.body);
  const errCode = envelope.errCode;
  const errMsg = envelope.errMsg ?? (envelope.isEnvelope ? undefined : snippet(ctx.bodyText));
  const Class = classForStatus(ctx.status) ?? classForErrCode(errCode) ?? DevicePlatformError;
  return new Class({
    method: ctx.method,
    path: ctx.path,
    attempts: ctx.attempts,
    status: ctx.status,
    errCode,
    errMsg,
    requestId: envelope.requestId ?? ctx.headerRequestId,
    outcomeUnknown: ctx.outcomeUnknown,
    note: ctx.note,
  });
}

function classForStatus(status: number): ErrorClass | undefined {
  if (status === 400 || status === 422) return ValidationError;
  if (status === 401 || status === 403) return AuthenticationError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 429) return RateLimitError;
  if (status >= 500) return ServerError;
  return undefined;
}

/** For HTTP 200 with `status: "Failed"`, the platform's errCode is all there is to go on. */
function classForErrCode(errCode: string | undefined): ErrorClass | undefined {
  if (errCode === undefined) return undefined;
  const c = errCode.toLowerCase();
  if (/auth|token|unauthori[sz]ed|forbidden/.test(c)) return AuthenticationError;
  if (/not_?found/.test(c)) return NotFoundError;
  if (/exist|conflict|duplicate/.test(c)) return ConflictError;
  if (/rate|limit|too_many/.test(c)) return RateLimitError;
  if (/invalid|param|validation|bad_request/.test(c)) return ValidationError;
  if (/internal|server|unavailable/.test(c)) return ServerError;
  return undefined;
}

interface FailureEnvelope {
  readonly isEnvelope: boolean;
  readonly errCode?: string;
  readonly errMsg?: string;
  readonly requestId?: string;
}

function readFailureEnvelope(body: unknown): FailureEnvelope {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { isEnvelope: false };
  const record = body as Record<string, unknown>;
  return {
    isEnvelope: true,
    errCode: scalarText(record.errCode ?? record.code ?? record.error),
    errMsg: scalarText(record.errMsg ?? record.message ?? record.error_description),
    requestId: scalarText(record.requestId),
  };
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value === "" ? undefined : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/** A short, single-line excerpt of a non-JSON body (an HTML error page from a proxy, say). */
function snippet(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat === "") return undefined;
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

function buildMessage(init: DevicePlatformErrorInit): string {
  const detail =
    init.status !== undefined
      ? `HTTP ${init.status}${init.errCode ? ` ${init.errCode}` : ""}${init.errMsg ? `: ${init.errMsg}` : ""}`
      : (init.reason ?? "request failed");
  const reasonSuffix = init.status !== undefined && init.reason ? ` (${init.reason})` : "";
  const attempts = `${init.attempts} attempt${init.attempts === 1 ? "" : "s"}`;
  const extras = init.requestId ? `requestId ${init.requestId}, ${attempts}` : attempts;
  const note = init.note ? `. ${init.note}` : "";
  return redactText(`${init.method} ${init.path} failed: ${detail}${reasonSuffix} (${extras})${note}`);
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
