/**
 * Refuses a delivery whose nonce was seen before. verifyWebhook already refuses a delivery signed
 * more than the tolerance ago, so nonces only need remembering for that long: together they make a
 * captured delivery useless to anyone who sends it again.
 */
export class ReplayGuard {
  private readonly seen = new Map<string, number>();

  /** @param windowMs how long a nonce is remembered: at least the timestamp tolerance, both ways. */
  constructor(private readonly windowMs: number) {}

  /** True the first time `nonce` is offered within the window, false for a replay. */
  firstSight(nonce: string, nowMs: number): boolean {
    for (const [known, at] of this.seen) if (nowMs - at > this.windowMs) this.seen.delete(known);
    if (this.seen.has(nonce)) return false;
    this.seen.set(nonce, nowMs);
    return true;
  }
}
