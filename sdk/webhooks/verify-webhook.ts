/**
 * `verifyWebhook`: what a receiver of the platform's webhooks calls on each delivery before it
 * trusts a byte of it — the four signing headers present, the signature right, the timestamp fresh,
 * the body the raw text of a JSON array of events — and the events, typed, with exact ids.
 */
import { parseLosslessJson } from "../lossless-json";
import { WebhookVerificationError } from "./webhook-error";
import { signingHeader, WEBHOOK_HEADERS, type WebhookHeaders } from "./webhook-headers";
import { parseWebhookEvent, type WebhookEvent } from "./webhook-events";
import { webhookSignatureMatches } from "./webhook-signature";

/** Input of {@link verifyWebhook}. */
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
 * Verifies a webhook delivery of the platform and returns its events. Checks, in this order: the
 * signing headers are there; the signature (constant-time compare); the timestamp lies within
 * `toleranceSeconds` of `now` either way; the body is a JSON array of well-formed events.
 * Throws {@link WebhookVerificationError} (code `missing_headers`, `bad_signature`,
 * `timestamp_out_of_window` or `malformed_body`), whose message never contains the secret.
 *
 * The platform's signature covers the timestamp and nonce, not the body: serve the receiver over
 * HTTPS, and refuse a nonce seen before within the window if replays inside it matter.
 */
export function verifyWebhook(input: VerifyWebhookInput): WebhookEvent[] {
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
  const signature = signingHeader(headers, WEBHOOK_HEADERS.signature);
  const timestamp = signingHeader(headers, WEBHOOK_HEADERS.timestamp);
  const nonce = signingHeader(headers, WEBHOOK_HEADERS.nonce);
  signingHeader(headers, WEBHOOK_HEADERS.webhookUuid);
  if (!webhookSignatureMatches(secret, timestamp, nonce, signature)) {
    throw new WebhookVerificationError("bad_signature", `${WEBHOOK_HEADERS.signature} does not match`);
  }
  checkTimestamp(timestamp, now, toleranceSeconds);
  return parseEvents(bodyText(body));
}
