/**
 * Why a webhook delivery was refused. The message says what was wrong with the delivery and never
 * contains the secret, the expected signature or the body.
 */

/** Stable reasons; match on these rather than on messages. */
export type WebhookVerificationErrorCode =
  /** A signing header is absent, empty or repeated, or the (unsigned) webhook uuid is not visible ASCII. */
  | "missing_headers"
  /**
   * `x-msc-request-signature` is not the HMAC of the timestamp and nonce, as received, under the
   * secret; or one of the three holds anything but visible ASCII (past HTTP's SP/HTAB around it),
   * which the platform never signs or sends.
   */
  | "bad_signature"
  /** `x-msc-request-timestamp` is not seconds, or lies outside the accepted window. */
  | "timestamp_out_of_window"
  /** The body is not the raw text of a JSON array of well-formed events. */
  | "malformed_body";

/**
 * A webhook delivery that must not be trusted. A receiver answers it with HTTP 401 (see
 * {@link WebhookVerificationError.httpStatus}).
 */
export class WebhookVerificationError extends Error {
  /** The status a receiver should answer with. */
  readonly httpStatus = 401;

  constructor(
    readonly code: WebhookVerificationErrorCode,
    message: string,
  ) {
    super(`webhook refused (${code}): ${message}`);
    this.name = "WebhookVerificationError";
  }
}
