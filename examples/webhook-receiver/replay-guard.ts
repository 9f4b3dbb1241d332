/**
 * Refuses a delivery whose nonce was seen before. verifyWebhookDelivery already refuses a delivery
 * signed more than the tolerance ago, so nonces only need remembering for that long: together they
 * make a captured delivery useless to anyone who sends it again.
 *
 * The key is the nonce verifyWebhookDelivery returns, the exact string its signature check covered,
 * never the raw header: a raw header padded with whitespace the verification removes would be a key
 * never seen before for a nonce already used.
 */
import type { VerifiedWebhookDelivery } from "pulumi-devplatform/sdk";

export class ReplayGuard {
  private readonly seen = new Map<string, number>();

  /** @param windowMs how long a nonce is remembered: at least the timestamp tolerance, both ways. */
  constructor(private readonly windowMs: number) {}

  /**
   * True the first time the nonce of `delivery` (as verified) is offered within the window, false
   * for a replay.
   */
  firstSight(delivery: Pick<VerifiedWebhookDelivery, "nonce">, nowMs: number): boolean {
    for (const [known, at] of this.seen) if (nowMs - at > this.windowMs) this.seen.delete(known);
    if (this.seen.has(delivery.nonce)) return false;
    this.seen.set(delivery.nonce, nowMs);
    return true;
  }
}
