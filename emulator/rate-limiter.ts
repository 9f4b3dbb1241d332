import { rateLimited } from "./http/emulator-error";

interface Window {
  startMs: number;
  count: number;
}

/**
 * At most N requests per second per application, counted in fixed one-second windows. Over the limit
 * a request gets 429 with `Retry-After` set to the seconds left in the window (rounded up).
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  /** @param limit requests per second; `undefined` or 0 means unlimited. */
  constructor(private readonly limit: number | undefined) {}

  /** Counts a request of an application; throws 429 when it is over the limit. */
  admit(applicationId: string, nowMs: number): void {
    if (!this.limit) return;
    let window = this.windows.get(applicationId);
    if (!window || nowMs - window.startMs >= 1000) {
      window = { startMs: nowMs - (nowMs % 1000), count: 0 };
      this.windows.set(applicationId, window);
    }
    window.count += 1;
    if (window.count > this.limit) {
      const retryAfter = (window.startMs + 1000 - nowMs) / 1000;
      throw rateLimited(`more than ${this.limit} requests per second for this application`, retryAfter);
    }
  }

  /** Forgets all windows. */
  reset(): void {
    this.windows.clear();
  }
}
