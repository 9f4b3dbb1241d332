/**
 * `verifyWebhookDelivery` and `verifyWebhook`: what a receiver of the platform's webhooks calls on
 * each delivery before it trusts a byte of it — the four signing headers present, the signature
 * right, the timestamp fresh, the body the raw text of a JSON array of events — and the events,
 * typed, with exact ids (with the timestamp and nonce as verified, for a replay guard).
 */
import { parseLosslessJson } from "../lossless-json";
import { WebhookVerificationError } from "./webhook-error";
import { readSigningHeaders, WEBHOOK_HEADERS, type WebhookHeaders } from "./webhook-headers";
import { parseWebhookEvent, type WebhookEvent } from "./webhook-events";
import { webhookSignatureMatches } from "./webhook-signature";

/** Input of {@link verifyWebhook} and {@link verifyWebhookDelivery}. */
export interface VerifyWebhookInput {
  /** The request's headers (names in any case). */
  readonly headers: WebhookHeaders;
  /** The raw request body, exactly as received: a string or the bytes (not a parsed object). */
  readonly body: string | Uint8Array;
  /** The webhook secret of the application. */
  readonly secret: string;
  /** The time to check the timestamp against (a Date or epoch milliseconds); default now. */
  readonly now?: Date | number;
  /** How far, in seconds, the timestamp may lie from `now`, either way; default 60. */
  readonly toleranceSeconds?: number;
}

/** A delivery {@link verifyWebhookDelivery} accepted: its events and the signed values, as verified. */
export interface VerifiedWebhookDelivery {
  /** The events of the body, typed, ids exact. */
  readonly events: WebhookEvent[];
  /**
   * `x-msc-request-timestamp`, seconds as digits, exactly the string the signature was checked over
   * (HTTP's optional whitespace around the header removed, nothing else).
   */
  readonly timestamp: string;
  /**
   * `x-msc-request-nonce`, exactly the string the signature was checked over: visible ASCII, HTTP's
   * optional whitespace (SP, HTAB) around the header removed and nothing else. Key a replay guard on
   * this value, never on the raw header: a replay whose header differs from it only by that
   * whitespace carries this same nonce.
   */
  readonly nonce: string;
}

/** The timestamp window of the platform's own receiver, seconds. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 60;

function checkTimestamp(timestamp: string, now: Date | number, toleranceSeconds: number): void {
  if (!/^\d{1,12}$/.test(timestamp)) {
    throw new WebhookVerificationError(
      "timestamp_out_of_window",
      `${WEBHOOK_HEADERS.timestamp} is not seconds`,
    );
  }
  const nowSeconds = (typeof now === "number" ? now : now.getTime()) / 1000;
  const skew = nowSeconds - Number(timestamp);
  if (skew > toleranceSeconds) {
    throw new WebhookVerificationError(
      "timestamp_out_of_window",
      `signed ${Math.floor(skew)} s ago, more than ${toleranceSeconds} s (a late or replayed delivery)`,
    );
  }
  if (-skew > toleranceSeconds) {
    throw new WebhookVerificationError(
      "timestamp_out_of_window",
      `signed ${Math.ceil(-skew)} s in the future, more than ${toleranceSeconds} s (clocks apart)`,
    );
  }
}

function bodyText(body: unknown): string {
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) {
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(body);
    } catch {
      throw new WebhookVerificationError("malformed_body", "the body is not UTF-8 text");
    }
  }
  throw new WebhookVerificationError(
    "malformed_body",
    "pass the raw request body (a string or Buffer), not a parsed object: ids above 2^53 and the exact bytes matter",
  );
}

function parseEvents(text: string): WebhookEvent[] {
  let value: unknown;
  try {
    value = parseLosslessJson(text);
  } catch {
    throw new WebhookVerificationError("malformed_body", "the body is not JSON");
  }
  if (!Array.isArray(value))
    throw new WebhookVerificationError("malformed_body", "the body is not an array of events");
  try {
    return value.map((item, index) => parseWebhookEvent(item, index));
  } catch (error) {
    throw new WebhookVerificationError("malformed_body", (error as Error).message);
  }
}

/**
 * Verifies a webhook delivery of the platform and returns its events with the timestamp and nonce
 * the signature was checked over. Checks, in this order: the signing headers are there, each visible
 * ASCII once HTTP's optional whitespace (SP, HTAB) around it is removed (U+00A0 and other Unicode
 * spaces are not removed: they refuse the delivery); the signature (constant-time compare); the
 * timestamp lies within `toleranceSeconds` of `now` either way; the body is a JSON array of
 * well-formed events. Throws {@link WebhookVerificationError} (code `missing_headers`,
 * `bad_signature`, `timestamp_out_of_window` or `malformed_body`), whose message never contains the
 * secret.
 *
 * The platform's signature covers the timestamp and nonce, not the body: serve the receiver over
 * HTTPS, and, if replays inside the window matter, refuse a {@link VerifiedWebhookDelivery.nonce}
 * seen before within it — the returned one, not the raw header.
 */
export function verifyWebhookDelivery(input: VerifyWebhookInput): VerifiedWebhookDelivery {
  const {
    headers,
    body,
    secret,
    now = Date.now(),
    toleranceSeconds = DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  } = input;
  if (typeof secret !== "string" || secret === "")
    throw new TypeError("verifyWebhook: secret must be a non-empty string");
  if (!(toleranceSeconds >= 0))
    throw new RangeError("verifyWebhook: toleranceSeconds must be a non-negative number");
  const { signature, timestamp, nonce } = readSigningHeaders(headers);
  if (!webhookSignatureMatches(secret, timestamp, nonce, signature)) {
    throw new WebhookVerificationError("bad_signature", `${WEBHOOK_HEADERS.signature} does not match`);
  }
  checkTimestamp(timestamp, now, toleranceSeconds);
  return { events: parseEvents(bodyText(body)), timestamp, nonce };
}

/**
 * Verifies a webhook delivery of the platform and returns its events: {@link verifyWebhookDelivery}
 * (same checks, same errors) without the verified timestamp and nonce. A receiver that guards
 * against replays calls {@link verifyWebhookDelivery} instead, to key on the nonce as verified.
 */
export function verifyWebhook(input: VerifyWebhookInput): WebhookEvent[] {
  return verifyWebhookDelivery(input).events;
}
