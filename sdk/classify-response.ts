/**
 * How a failed response becomes an error of the hierarchy (errors.ts): by what the platform said —
 * the HTTP status and the exact errCode (platform-err-codes.ts) — and whether the body is the
 * platform's envelope at all (if not, a ConfigurationError naming the base URL).
 */
import {
  AuthenticationError,
  ConfigurationError,
  ConflictError,
  DevicePlatformError,
  NotFoundError,
  QuotaExhaustedError,
  RateLimitError,
  ResponseShapeError,
  ServerError,
  ValidationError,
  type ErrorClass,
} from "./errors";
import {
  missingResourceOf,
  PLATFORM_ERR_CODES,
  statusOfErrCode,
  type PlatformErrCode,
} from "./platform-err-codes";
import { redactText, redactThenCut } from "./redact";

/** The errCode of a spent daily quota (see platform-err-codes.ts). */
const QUOTA_EXHAUSTED: PlatformErrCode = "quota_exhausted";

export interface ResponseErrorContext {
  readonly method: string;
  readonly path: string;
  readonly attempts: number;
  readonly status: number;
  /** The response body as parsed JSON, if it was JSON. */
  readonly body: unknown;
  /** The raw body text, quoted when the body is not the platform's envelope. */
  readonly bodyText?: string;
  /** Fallback request id from a response header. */
  readonly headerRequestId?: string;
  readonly outcomeUnknown?: boolean;
  readonly note?: string;
  /** The client's base URL, which a {@link ConfigurationError} names. */
  readonly baseUrl?: string;
  /**
   * The request went to the OAuth token endpoint: there a 400 or 401 means the credentials or the
   * refresh token were refused whatever the body, and any other refusal means a wrong base URL.
   */
  readonly tokenEndpoint?: boolean;
}

/** A failed response as an error, and the status that retry decisions go by. */
export interface ClassifiedFailure {
  readonly error: DevicePlatformError;
  /**
   * The HTTP status; for HTTP 2xx with `status: "Failed"`, the status its errCode stands for (the
   * HTTP status itself when the errCode is unknown).
   */
  readonly status: number;
  /**
   * A write answered 2xx whose body is not a readable success (empty, cut off, not the envelope):
   * the platform may have performed it, so it must not be sent again blindly.
   */
  readonly unreadable?: boolean;
}

/** Methods that change something on the platform. */
const WRITE_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Whether a request changes something on the platform: every method but GET, except the searches,
 * which the platform takes as POST (`…/devices/search`, `…/rps/search`) and which change nothing.
 */
function isWrite(method: string, path: string): boolean {
  return WRITE_METHODS.has(method) && !/\/search(\?|$)/.test(path);
}

/** Largest excerpt of a body that is not the platform's envelope, in characters. */
const EXCERPT_CHARACTERS = 120;

/**
 * Maps a failed response to an error: an HTTP error status, HTTP 2xx with `status: "Failed"`, or a
 * 2xx body that is not the platform's envelope at all. Classification goes by what the platform
 * said — the status and the exact errCode (see platform-err-codes.ts) — never by guesses.
 */
export function errorFromResponse(ctx: ResponseErrorContext): DevicePlatformError {
  return classifyFailure(ctx).error;
}

/** {@link errorFromResponse}, also returning the status the retry policy goes by. */
export function classifyFailure(ctx: ResponseErrorContext): ClassifiedFailure {
  const body = readFailureBody(ctx.body, ctx.tokenEndpoint ?? false, ctx.bodyText);
  if (isUnreadableWriteAnswer(ctx, body)) return unreadableWriteAnswer(ctx, body);
  const status = effectiveStatus(ctx.status, body, ctx.tokenEndpoint ?? false);
  const Class = classFor(status, body, ctx.tokenEndpoint ?? false);
  const error = new Class({
    method: ctx.method,
    path: ctx.path,
    attempts: ctx.attempts,
    status: ctx.status,
    errCode: body.errCode,
    errMsg: body.errMsg,
    requestId: body.requestId ?? ctx.headerRequestId,
    reason: body.reason,
    outcomeUnknown: ctx.outcomeUnknown,
    note: ctx.note,
    baseUrl: ctx.baseUrl,
  });
  return { error, status };
}

/**
 * A write (not a token grant) answered 2xx with a body that is neither a success nor the failure
 * envelope. The status says the request arrived and was handled, so the write may have been
 * performed: calling it a wrong base URL ("not sent") would let the caller send it again and do it
 * twice. The platform's answer was unreadable; the outcome is unknown.
 */
function isUnreadableWriteAnswer(ctx: ResponseErrorContext, body: FailureBody): boolean {
  const success = ctx.status >= 200 && ctx.status < 300;
  return success && !body.isEnvelope && !ctx.tokenEndpoint && isWrite(ctx.method, ctx.path);
}

function unreadableWriteAnswer(ctx: ResponseErrorContext, body: FailureBody): ClassifiedFailure {
  const what = body.reason?.replace(/^not the platform's response: /, "") ?? "not the envelope";
  const error = new ResponseShapeError({
    method: ctx.method,
    path: ctx.path,
    attempts: ctx.attempts,
    status: ctx.status,
    requestId: ctx.headerRequestId,
    reason:
      `the platform's answer could not be read (${what}): HTTP ${ctx.status} says the request was ` +
      "handled, so the write may have been performed",
    outcomeUnknown: true,
    note: ctx.note,
    baseUrl: ctx.baseUrl,
  });
  return { error, status: ctx.status, unreadable: true };
}

/**
 * HTTP 2xx with `status: "Failed"` counts as the status its errCode stands for; so does the
 * platform's own "gone" code for an object with any HTTP status (nothing to retry: it said which
 * object is missing).
 */
function effectiveStatus(httpStatus: number, body: FailureBody, tokenEndpoint: boolean): number {
  if (saysGone(body, tokenEndpoint)) return PLATFORM_ERR_CODES.device_not_found;
  if (httpStatus < 200 || httpStatus >= 300 || !body.isEnvelope) return httpStatus;
  return statusOfErrCode(body.errCode) ?? httpStatus;
}

/**
 * The platform's failure envelope naming a missing object (`device_not_found`,
 * `rps_record_not_found`): "gone" is decided by that code, whatever the HTTP status beside it, as
 * the platform's own client code decides it — and never by a status alone.
 */
function saysGone(body: FailureBody, tokenEndpoint: boolean): boolean {
  return !tokenEndpoint && body.isEnvelope && missingResourceOf(body.errCode) !== undefined;
}

/** 5xx statuses a gateway or load balancer answers for a platform that is down or slow. */
const PROXY_FAULT_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 504]);

function classFor(status: number, body: FailureBody, tokenEndpoint: boolean): ErrorClass {
  if (saysGone(body, tokenEndpoint)) return NotFoundError;
  if (status === 429 && body.isEnvelope && body.errCode === QUOTA_EXHAUSTED) return QuotaExhaustedError;
  if (status === 429) return RateLimitError;
  // A 5xx that is not the envelope and not one a proxy sends for a platform in trouble (an HTML
  // 501 "Unsupported method"): another server answered.
  if (status >= 500 && !body.isEnvelope && !PROXY_FAULT_STATUSES.has(status)) return ConfigurationError;
  if (status >= 500) return ServerError;
  // Still 2xx: an errCode the SDK does not know (the platform spoke, but said nothing usable),
  // or a body that is not the envelope (another server answered).
  if (status >= 200 && status < 300) return body.isEnvelope ? DevicePlatformError : ConfigurationError;
  if (tokenEndpoint) return tokenFailureClass(status, body);
  if (!body.isEnvelope) return ConfigurationError;
  return platformFailureClass(status, body.errCode);
}

/** The token endpoint: 400/401 are refused credentials (OAuth servers use both); the rest is setup. */
function tokenFailureClass(status: number, body: FailureBody): ErrorClass {
  if (status === 401) return AuthenticationError;
  if (status !== 400) return ConfigurationError;
  return body.isEnvelope && body.errCode === "invalid_parameter" ? ValidationError : AuthenticationError;
}

/** A failure envelope from a device endpoint, by its (effective) status. */
function platformFailureClass(status: number, errCode: string | undefined): ErrorClass {
  switch (status) {
    case 400:
    case 422:
      return ValidationError;
    case 401:
    case 403:
      return AuthenticationError;
    case 404:
      // Only the platform saying which object is missing means "gone"; route_not_found or any
      // other 404 means the request went to the wrong place.
      return missingResourceOf(errCode) ? NotFoundError : ConfigurationError;
    case 409:
      return ConflictError;
    default:
      return DevicePlatformError;
  }
}

interface FailureBody {
  /** The platform's failure envelope: a JSON object with `status: "Failed"`. */
  readonly isEnvelope: boolean;
  readonly errCode?: string;
  readonly errMsg?: string;
  readonly requestId?: string;
  /** For bodies that are not the envelope: an excerpt of what came instead. */
  readonly reason?: string;
}

function readFailureBody(body: unknown, tokenEndpoint: boolean, text: string | undefined): FailureBody {
  const record = asRecord(body);
  if (record?.status === "Failed") {
    return {
      isEnvelope: true,
      errCode: scalarText(record.errCode),
      errMsg: scalarText(record.errMsg),
      requestId: scalarText(record.requestId),
    };
  }
  // An OAuth server's own error body (RFC 6749, section 5.2), which the token endpoint may send.
  const oauthError = tokenEndpoint ? scalarText(record?.error) : undefined;
  if (oauthError !== undefined) {
    return { isEnvelope: false, errCode: oauthError, errMsg: scalarText(record?.error_description) };
  }
  return { isEnvelope: false, reason: notThePlatform(text) };
}

function asRecord(body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  return body as Record<string, unknown>;
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value === "" ? undefined : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/** Says what came instead of the platform's envelope, quoting its beginning. */
function notThePlatform(text: string | undefined): string {
  const excerpt = snippet(text);
  return excerpt === undefined
    ? "not the platform's response: empty body"
    : `not the platform's response: "${excerpt}"`;
}

/**
 * A short, single-line excerpt of a non-JSON body (an HTML error page from a proxy, say). Redacted
 * whole before it is flattened and cut: a secret the server echoed, cut in two, would no longer be
 * recognised, and its first part would be shown.
 */
function snippet(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const flat = redactText(text).replace(/\s+/g, " ").trim();
  if (flat === "") return undefined;
  return redactThenCut(flat, EXCERPT_CHARACTERS);
}
