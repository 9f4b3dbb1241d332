/**
 * The `errCode` values the emulator puts in its failure envelope. The platform's documentation does
 * not list its error codes (platform-api.md, "Errors": not shown); `authentication_failed` and
 * `device_not_found` are the platform's own words, the rest follow DESIGN.md's decisions.
 */
export const ErrCode = {
  /** 400: the body, a path parameter or a query parameter is malformed or breaks a rule. */
  InvalidParameter: "invalid_parameter",
  /** 401: the access token is missing, unknown, replaced by a refresh, or expired; or bad credentials. */
  AuthenticationFailed: "authentication_failed",
  /** 404: no device with this deviceId in the caller's application. */
  DeviceNotFound: "device_not_found",
  /** 404: no RPS record for this serial number in the caller's application. */
  RpsRecordNotFound: "rps_record_not_found",
  /** 404: no such endpoint (method and path). */
  RouteNotFound: "route_not_found",
  /** 409: a device with this serial number is already in the caller's application. */
  DeviceAlreadyExists: "device_already_exists",
  /** 409: a device with this serial number is on the platform in another application. */
  DeviceInOtherApplication: "device_in_other_application",
  /** 409: adding a device whose serial number holds an RPS record. */
  RpsRecordExists: "rps_record_exists",
  /** 409: specifying an RPS profile for a serial number that is a device on the platform. */
  DeviceOnPlatform: "device_on_platform",
  /** 429: over the per-application request rate (or an injected 429), with `Retry-After`. */
  RateLimited: "rate_limited",
  /**
   * 429: the application's daily request quota is spent (`--daily-quota`); no `Retry-After`, it
   * renews the next emulator day. This project's decision: the platform publishes no answer for it.
   */
  QuotaExhausted: "quota_exhausted",
  /** 500: an unexpected server fault (or an injected 500). */
  InternalError: "internal_error",
  /** 501: an operation the emulator does not offer (none since history and service calls are served). */
  NotImplemented: "not_implemented",
  /** 503: an injected outage. */
  ServiceUnavailable: "service_unavailable",
} as const;

/** One of the emulator's error codes. */
export type ErrCode = (typeof ErrCode)[keyof typeof ErrCode];
