/**
 * One operation's wait for the platform's rate limit. A 429 `rate_limited` was not performed, so any
 * operation may be sent again; the refusal slows the whole client (pacer.ts), and the operation
 * waits for its turn again, however many times it is refused, until it has been refused for longer
 * than the client's `rateLimitWaitMs`. A count of attempts would be the wrong bound: while a team's
 * stacks find their shares of the application's rate, a request may well be refused several times,
 * and none of it costs anything but time.
 */
import { machineMs } from "./machine-clock";
import type { AdaptivePacer } from "./pacer";
import { parseRetryAfterMs, type AttemptOutcome } from "./retry";

/** What to do after an answer that was a `rate_limited` refusal. */
export type RateLimitStep = { readonly retryInMs: number } | { readonly note: string };

/** The rate-limit wait of one operation. */
export class RateLimitWait {
  private firstRefusedAt: number | undefined;

  /**
   * @param pacer the client's pace
   * @param waitMs how long the operation may go on being refused
   * @param now the machine's monotonic clock, which the budget goes by (tests move it)
   * @param wallNow the wall clock, which a `Retry-After` date is read against
   */
  constructor(
    private readonly pacer: AdaptivePacer,
    private readonly waitMs: number,
    private readonly now: () => number = machineMs,
    private readonly wallNow: () => number = Date.now,
  ) {}

  /**
   * Takes the outcome of the attempt the pacer gave `ticket` (undefined: a request that keeps to no
   * pace, a token grant). For a `rate_limited` refusal: the wait before the next attempt, or, once
   * the budget is spent, the note the error carries. Undefined for any other outcome (which keeps
   * the client's other retry rules); an answer of the platform's own (below 500) counts as a
   * request that passed the limit. A refusal of a request without a ticket waits its `Retry-After`
   * and leaves the pace as it is.
   */
  onAnswer(
    outcome: AttemptOutcome,
    ticket: number | undefined,
    retryAfter: string | undefined,
  ): RateLimitStep | undefined {
    if (outcome.kind !== "response") return undefined;
    if (outcome.status !== 429 || outcome.quotaExhausted) {
      if (outcome.status < 500 && outcome.status !== 429 && ticket !== undefined) this.pacer.passed(ticket);
      return undefined;
    }
    const now = this.now();
    const retryAfterMs = parseRetryAfterMs(retryAfter, this.wallNow());
    const retryInMs =
      ticket === undefined ? this.pacer.unpacedWait(retryAfterMs) : this.pacer.refused(ticket, retryAfterMs);
    this.firstRefusedAt ??= now;
    const refusedFor = now - this.firstRefusedAt;
    if (refusedFor < this.waitMs) return { retryInMs };
    return {
      note:
        `refused for the platform's rate limit for ${seconds(refusedFor)}, the longest this client ` +
        `waits one out (rateLimitWait: ${seconds(this.waitMs)})`,
    };
  }
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}
