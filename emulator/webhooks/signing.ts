/**
 * Webhook signing as the platform's reference describes it: the signature is the lowercase hex
 * HMAC-SHA256, keyed with the webhook secret, of the timestamp (seconds) followed by the nonce. It
 * covers neither the body nor the URL; the receiver's timestamp window is what limits a replay.
 */
import { createHmac, randomBytes } from "node:crypto";

/** Header names of a signed delivery (HTTP header names are case-insensitive; sent in lowercase). */
export const SIGNATURE_HEADER = "x-msc-request-signature";
/** Seconds since the epoch when the delivery attempt was signed. */
export const TIMESTAMP_HEADER = "x-msc-request-timestamp";
/** A random string, new for each attempt. */
export const NONCE_HEADER = "x-msc-request-nonce";
/** The id of the webhook (the application's webhook configuration) that sends the delivery. */
export const WEBHOOK_UUID_HEADER = "x-msc-webhook-uuid";

/** The lowercase hex HMAC-SHA256 of `timestamp + nonce` keyed with `secret`. */
export function webhookSignature(secret: string, timestamp: string, nonce: string): string {
  return createHmac("sha256", secret)
    .update(timestamp + nonce)
    .digest("hex");
}

/** A fresh nonce: 16 random bytes as 32 hex digits. */
export function newNonce(): string {
  return randomBytes(16).toString("hex");
}

/** The four headers of one delivery attempt, signed at `nowMs` (the emulator's clock). */
export function signedHeaders(
  secret: string,
  webhookUuid: string,
  nowMs: number,
  nonce: string = newNonce(),
): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  return {
    [SIGNATURE_HEADER]: webhookSignature(secret, timestamp, nonce),
    [TIMESTAMP_HEADER]: timestamp,
    [NONCE_HEADER]: nonce,
    [WEBHOOK_UUID_HEADER]: webhookUuid,
  };
}
