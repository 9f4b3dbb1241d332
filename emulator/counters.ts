/** Request counts as the control API reports them. */
export interface CounterSnapshot {
  total: number;
  /** Keyed by method and route pattern without the version prefix, e.g. `GET /devices/{deviceId}`. */
  byRoute: Record<string, number>;
  /** Requests an injected fault answered (or delayed), by kind, e.g. `{ "500": 3, "reset-after": 1 }`. */
  faults: Record<string, number>;
  /** Requests the per-application rate limit refused (429 `rate_limited`, `--rate-limit`), by route key. */
  rateLimited: Record<string, number>;
}

/** Counts platform requests per route, faulted and rejected ones included. */
export class RequestCounters {
  private total = 0;
  private byRoute = new Map<string, number>();
  private faults = new Map<string, number>();
  private rateLimited = new Map<string, number>();

  /** Counts one request. */
  count(routeKey: string): void {
    this.total += 1;
    this.byRoute.set(routeKey, (this.byRoute.get(routeKey) ?? 0) + 1);
  }

  /** Counts one injected fault. */
  countFault(kind: string): void {
    this.faults.set(kind, (this.faults.get(kind) ?? 0) + 1);
  }

  /** Counts one request the rate limit refused (already counted by {@link count}). */
  countRateLimited(routeKey: string): void {
    this.rateLimited.set(routeKey, (this.rateLimited.get(routeKey) ?? 0) + 1);
  }

  /** The counts so far. */
  snapshot(): CounterSnapshot {
    return {
      total: this.total,
      byRoute: Object.fromEntries(this.byRoute),
      faults: Object.fromEntries(this.faults),
      rateLimited: Object.fromEntries(this.rateLimited),
    };
  }

  /** Back to zero. */
  reset(): void {
    this.total = 0;
    this.byRoute = new Map();
    this.faults = new Map();
    this.rateLimited = new Map();
  }
}
