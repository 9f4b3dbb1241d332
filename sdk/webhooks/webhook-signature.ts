/**
 * The platform's webhook signature: lowercase hex HMAC-SHA256, keyed with the webhook secret, of the
 * `x-msc-request-timestamp` value followed by the `x-msc-request-nonce` value. It does not cover the
 * body, so the body's integrity rests on TLS and its freshness on the timestamp window.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** The signature the platform sends for `timestamp` and `nonce` under `secret`. */
export function computeWebhookSignature(secret: string, timestamp: string, nonce: string): string {
  return createHmac("sha256", secret)
    .update(timestamp + nonce)
    .digest("hex");
}

/**
 * Whether `signature` is the one for `timestamp` and `nonce` under `secret`, compared in constant
 * time (the length of a SHA-256 hex digest is public, so only equal lengths are compared).
 */
export function webhookSignatureMatches(
  secret: string,
  timestamp: string,
  nonce: string,
  signature: string,
): boolean {
  const expected = Buffer.from(computeWebhookSignature(secret, timestamp, nonce), "utf8");
  const given = Buffer.from(signature.toLowerCase(), "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
