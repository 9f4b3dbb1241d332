/**
 * What the clients of one machine learned of the platform before any refusal, kept for the next
 * client (pacer.ts): a command that saw {@link FREE_START_RATE} requests or more pass in one second
 * with no refusal leaves that rate in its pace store, and a later command starts its slow start
 * there — unspaced — instead of climbing from the initial rate (2 a second) again, as Linux's tcp_metrics
 * and RFC 9040 let a new connection start from what an earlier one to the same destination
 * learned. The climb from 2 to 64 a second costs each fresh process about 3.5 s of timer waits
 * (e-fold a second), which was most of what a fleet's `up` and `refresh` paid for the pacing where
 * nothing is refused.
 *
 * Only a rate at or above FREE_START_RATE is kept: below it a later client would start spaced at
 * the rate alone, and several starting together would each take it. One the store keeps longer
 * than PROVEN_RATE_VALID_MS (pace-state.ts), or with a refusal known since, is not recalled (the store's
 * `recall`), and a refusal of this client forgets it.
 */
import {
  FREE_START_RATE,
  MEASURE_WINDOW_MS,
  REMEMBER_EVERY_MS,
  type PaceState,
  type PaceStore,
} from "./pace-state";

/** The proven rate of one client: recalled once, remembered when it doubled, forgotten at a refusal. */
export class ProvenRate {
  private recalled = false;
  /** What this client last remembered (0: nothing yet), and when (its clock's milliseconds). */
  private kept = 0;
  private keptAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly store: PaceStore | undefined) {}

  /**
   * The rate a slow start may begin at: the store's remembered rate the first time (at least
   * {@link FREE_START_RATE}), else 0. A store that cannot be read remembers nothing.
   */
  recallOnce(): number {
    if (this.recalled) return 0;
    this.recalled = true;
    let rate: number | undefined;
    try {
      rate = this.store?.recall?.();
    } catch {
      return 0;
    }
    return rate !== undefined && rate >= FREE_START_RATE ? rate : 0;
  }

  /**
   * A request of the slow start passed `now`: what passed in the last second is remembered when it
   * reached {@link FREE_START_RATE}, and then again each time it doubled, at most once every
   * {@link REMEMBER_EVERY_MS} — a handful of writes a command, none per request.
   */
  passed(state: PaceState, now: number): void {
    if (this.store?.remember === undefined) return;
    const proven = state.passedAt.length * (1000 / MEASURE_WINDOW_MS);
    if (proven < Math.max(FREE_START_RATE, 2 * this.kept) || now - this.keptAt < REMEMBER_EVERY_MS) return;
    this.kept = proven;
    this.keptAt = now;
    try {
      this.store.remember(proven);
    } catch {
      // The memory is advice: the next command climbs from INITIAL_RATE, as without it.
    }
  }

  /** This client met a refusal: the rate kept says nothing any more. */
  forget(): void {
    this.kept = Number.POSITIVE_INFINITY; // nothing this client proves since is remembered
    try {
      this.store?.forget?.();
    } catch {
      // One that cannot be forgotten expires (PROVEN_RATE_VALID_MS), and the store's recall
      // refuses it while the pace's last decrease is as recent.
    }
  }
}
