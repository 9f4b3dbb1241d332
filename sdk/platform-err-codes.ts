/**
 * The platform's `errCode` values and the HTTP status each one stands for.
 *
 * The API document does not list error codes ("not shown"); these are the platform's own
 * (`authentication_failed`, `device_not_found`) and DESIGN.md's decisions for the rest. Failures are
 * classified by exact lookup in this table, never by guessing from parts of the code: a code that
 * merely contains "not_found" is not a missing device.
 *
 * The status matters because the platform may also answer HTTP 200 with `status: "Failed"`, which
 * DESIGN.md says to treat exactly as the same `errCode` over HTTP.
 */
export const PLATFORM_ERR_CODES = {
  /** 400: the body, a path parameter or a query parameter is malformed or breaks a rule. */
  invalid_parameter: 400,
  /** 401: missing, invalid, replaced or expired token; or client credentials refused. */
  authentication_failed: 401,
  /** 404: no device with this deviceId in the application. */
  device_not_found: 404,
  /** 404: no RPS record for this serial number in the application. */
  rps_record_not_found: 404,
  /** 404: no such endpoint — the base URL or API version is wrong, nothing is "gone". */
  route_not_found: 404,
  /** 409: the serial number is already a device of this application. */
  device_already_exists: 409,
  /** 409: the serial number is a device of another application. */
  device_in_other_application: 409,
  /** 409: the serial number holds an RPS record, so it cannot be added. */
  rps_record_exists: 409,
  /** 409: the serial number is a device on the platform, so it cannot get an RPS record. */
  device_on_platform: 409,
  /** 429: over the request rate; not performed. */
  rate_limited: 429,
  /**
   * 429: the application's daily request quota (per plan) is spent; not performed, and it stays
   * refused until the quota renews the next day, so it is never retried. The platform publishes
   * no code for it: this project's decision, as its emulator answers.
   */
  quota_exhausted: 429,
  /** 500: a server fault; the request may or may not have been performed. */
  internal_error: 500,
  /** 501: an operation the platform does not offer. */
  not_implemented: 501,
  /** 503: the service is unavailable; the request may or may not have been performed. */
  service_unavailable: 503,
} as const satisfies Readonly<Record<string, number>>;

/** One of the platform's error codes. */
export type PlatformErrCode = keyof typeof PLATFORM_ERR_CODES;

/** The errCodes that mean "this object is gone", and which kind of object each one is about. */
export const GONE_ERR_CODES = {
  device_not_found: "device",
  rps_record_not_found: "rps_record",
} as const satisfies Partial<Record<PlatformErrCode, string>>;

/** What a `NotFoundError` is about. */
export type MissingResource = (typeof GONE_ERR_CODES)[keyof typeof GONE_ERR_CODES];

/** True when `errCode` is exactly one of the platform's codes. */
export function isPlatformErrCode(errCode: string | undefined): errCode is PlatformErrCode {
  return errCode !== undefined && Object.hasOwn(PLATFORM_ERR_CODES, errCode);
}

/** The HTTP status the platform's `errCode` stands for, or undefined for an unknown code. */
export function statusOfErrCode(errCode: string | undefined): number | undefined {
  return isPlatformErrCode(errCode) ? PLATFORM_ERR_CODES[errCode] : undefined;
}

/** The kind of object a "gone" errCode is about, or undefined when `errCode` does not mean gone. */
export function missingResourceOf(errCode: string | undefined): MissingResource | undefined {
  return errCode !== undefined && Object.hasOwn(GONE_ERR_CODES, errCode)
    ? GONE_ERR_CODES[errCode as keyof typeof GONE_ERR_CODES]
    : undefined;
}
