import { ErrCode } from "./err-codes";

/**
 * A failure the emulator answers with its failure envelope. Handlers throw these; the error handler
 * renders them, so every failure path produces the same shape.
 */
export class EmulatorError extends Error {
  /** HTTP status of the response. */
  readonly statusCode: number;
  /** The envelope's `errCode`. */
  readonly errCode: ErrCode;
  /** Extra response headers, e.g. `Retry-After`. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(statusCode: number, errCode: ErrCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "EmulatorError";
    this.statusCode = statusCode;
    this.errCode = errCode;
    this.headers = headers;
  }
}

/** 400 `invalid_parameter`. */
export function invalidParameter(message: string): EmulatorError {
  return new EmulatorError(400, ErrCode.InvalidParameter, message);
}

/** 401 `authentication_failed`; `WWW-Authenticate` follows RFC 6750 so generic clients understand it. */
export function authenticationFailed(message: string): EmulatorError {
  return new EmulatorError(401, ErrCode.AuthenticationFailed, message, {
    "www-authenticate": 'Bearer error="invalid_token"',
  });
}

/** 404 `device_not_found`. */
export function deviceNotFound(deviceId: string): EmulatorError {
  return new EmulatorError(
    404,
    ErrCode.DeviceNotFound,
    `device ${deviceId} does not exist in this application`,
  );
}

/** 429 `rate_limited` with `Retry-After` in whole seconds. */
export function rateLimited(message: string, retryAfterSeconds: number): EmulatorError {
  return new EmulatorError(429, ErrCode.RateLimited, message, {
    "retry-after": String(Math.max(0, Math.ceil(retryAfterSeconds))),
  });
}
