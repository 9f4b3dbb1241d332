/**
 * Client-side pacing: a cap on requests in flight and an optional requests-per-second limit.
 *
 * The platform's request quota depends on the plan and is not published, so the client lets the
 * user stay under it instead of learning it from 429s. Both limits are fair (first come, first
 * served) so a long listing cannot starve other callers.
 */
import { sleep } from "./retry";

/** Limits applied to every HTTP attempt of one client. */
export interface LimiterOptions {
  /** Requests in flight at once (≥ 1). */
  readonly concurrency: number;
  /** Request starts per second; unlimited when undefined. */
  readonly requestsPerSecond?: number;
}

/** A counting semaphore plus a start-time spacer. */
export class RequestLimiter {
  private active = 0;
  private readonly waiters: (() => void)[] = [];
  private nextStartAt = 0;
  private readonly intervalMs: number;

  constructor(private readonly options: LimiterOptions) {
    this.intervalMs = options.requestsPerSecond ? 1000 / options.requestsPerSecond : 0;
  }

  /** Runs `task` once a slot is free and the rate allows a start. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      await this.pace();
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.active < this.options.concurrency) {
      this.active += 1;
      return Promise.resolve();
    }
    // The slot is handed over directly by release(), so `active` stays counted for the waiter.
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.active -= 1;
  }

  /** Reserves the next start time synchronously, so concurrent callers get distinct slots. */
  private async pace(): Promise<void> {
    if (this.intervalMs === 0) return;
    const now = Date.now();
    const startAt = Math.max(now, this.nextStartAt);
    this.nextStartAt = startAt + this.intervalMs;
    await sleep(startAt - now);
  }
}
