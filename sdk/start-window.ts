/**
 * The pacer's bound before the platform has refused anything: a count of requests in flight, not a
 * rate. It starts at {@link INITIAL_WINDOW} and grows by {@link WINDOW_GAIN} for each request that
 * passes — TCP's congestion window in slow start, here growing 1.5 × every round trip — so a
 * platform that never refuses is sent the client's whole concurrency (64 in the provider) after
 * about nine round trips, and many clients started at once against a limit meet it with about one
 * round trip's overshoot each rather than every request they hold. (A gain of 1, doubling, refused
 * twice as many in `bench/pace-simulation.ts`'s 4 × 30 at 10/s with 64 in flight: 19 of 139, not 9.)
 *
 * It costs nothing a request could wait for: no timer (a request waits only for another to end,
 * as it waits for the client's concurrency) and no look at a shared pace (pace-store.ts): that is
 * engaged only once a refusal is known. A rate-based slow start (2 requests a second, doubling
 * every second) cost a 10,000-device fleet about 9 s of its `up` against a platform that never
 * refused.
 */

/** Requests in flight a client starts with. */
export const INITIAL_WINDOW = 2;
/** What each request that passes adds to the window. */
export const WINDOW_GAIN = 0.5;

/** Requests in flight allowed before the first refusal; the waiting ones start as room is made. */
export class StartWindow {
  private size = INITIAL_WINDOW;
  private active = 0;
  private waiters: (() => void)[] = [];

  /** Counts a request as started when there is room; false when it must {@link wait}. */
  tryStart(): boolean {
    if (this.active >= Math.floor(this.size)) return false;
    this.active += 1;
    return true;
  }

  /** Resolves when there may be room (or the window is given up); try again then. */
  wait(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** A request ended: its room goes to the next waiting one. */
  ended(): void {
    this.active = Math.max(0, this.active - 1);
    this.wake(1);
  }

  /** A request passed: the window grows by {@link WINDOW_GAIN}. */
  grow(): void {
    const room = Math.floor(this.size + WINDOW_GAIN) - Math.floor(this.size);
    this.size += WINDOW_GAIN;
    this.wake(room);
  }

  /** The window no longer bounds anything (the pace took over): every waiting request looks again. */
  release(): void {
    this.wake(this.waiters.length);
  }

  private wake(count: number): void {
    for (const waiter of this.waiters.splice(0, count)) waiter();
  }
}
