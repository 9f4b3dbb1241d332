import { describe, expect, it } from "vitest";
import {
  DEFAULT_RETRY_OPTIONS,
  backoffDelayMs,
  decideRetry,
  parseRetryAfterMs,
  retryDelayMs,
  type AttemptOutcome,
} from "../../../sdk/retry";

const options = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 1000, retryAfterCapMs: 5000 };

describe("backoffDelayMs (full jitter)", () => {
  it("stays within [0, min(cap, base * 2^(n-1))) for every retry number", () => {
    for (let retry = 1; retry <= 12; retry += 1) {
      const ceiling = Math.min(1000, 100 * 2 ** (retry - 1));
      expect(backoffDelayMs(retry, options, () => 0)).toBe(0);
      expect(backoffDelayMs(retry, options, () => 0.999999)).toBe(ceiling - 1);
      for (let i = 0; i < 200; i += 1) {
        const delay = backoffDelayMs(retry, options);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(ceiling);
      }
    }
  });

  it("doubles the ceiling per retry until the cap", () => {
    const half = () => 0.5;
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelayMs(n, options, half))).toEqual([
      50, 100, 200, 400, 500, 500,
    ]);
  });

  it("spreads delays over the whole range (jitter, not a fixed step)", () => {
    const samples = Array.from({ length: 2000 }, () => backoffDelayMs(4, options));
    const low = samples.filter((d) => d < 400).length;
    expect(low).toBeGreaterThan(700);
    expect(low).toBeLessThan(1300);
    expect(new Set(samples).size).toBeGreaterThan(300);
  });

  it("does not overflow for huge retry numbers", () => {
    expect(backoffDelayMs(10_000, options, () => 0.5)).toBe(500);
  });
});

describe("Retry-After", () => {
  it("reads delay-seconds and HTTP dates", () => {
    expect(parseRetryAfterMs("3")).toBe(3000);
    expect(parseRetryAfterMs(" 1.5 ")).toBe(1500);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfterMs("Wed, 01 Jan 2025 00:00:10 GMT", now)).toBe(10_000);
    // A date past says nothing to wait for: the caller's default wait, not none.
    expect(parseRetryAfterMs("Tue, 31 Dec 2024 00:00:00 GMT", now)).toBeUndefined();
    expect(parseRetryAfterMs(undefined)).toBeUndefined();
    expect(parseRetryAfterMs("soon")).toBeUndefined();
  });

  it("reads nothing else: '-1', '1, 1', '10 20', '+5', '5s', a date in another form or past are no wait of 0", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    for (const value of [
      "-1",
      "1, 1",
      "10 20",
      "+5",
      "5s",
      "2025-01-01T00:00:10Z",
      "Wed, 01 Jan 2025 00:00:00 GMT",
    ])
      expect(parseRetryAfterMs(value, now), value).toBeUndefined();
    // Without one, a refused request waits the default, not 0.
    expect(retryDelayMs(3, "-1", options, () => 0.5)).toBe(200);
  });

  it("is honoured instead of the backoff, up to the cap", () => {
    expect(retryDelayMs(1, "2", options, () => 0)).toBe(2000);
    expect(retryDelayMs(1, "3600", options, () => 0)).toBe(5000);
    expect(retryDelayMs(3, undefined, options, () => 0.5)).toBe(200);
  });

  it("has sane defaults", () => {
    expect(DEFAULT_RETRY_OPTIONS.retryAfterCapMs).toBeGreaterThanOrEqual(DEFAULT_RETRY_OPTIONS.maxDelayMs);
  });
});

describe("decideRetry", () => {
  const response = (status: number): AttemptOutcome => ({ kind: "response", status });
  const reset: AttemptOutcome = { kind: "transport", performed: "unknown", transient: true };
  const refused: AttemptOutcome = { kind: "transport", performed: "no", transient: true };
  const closed: AttemptOutcome = { kind: "transport", performed: "unknown", transient: false };

  it("repeats safe operations after 429, 500, 502, 503, 504, resets, timeouts and refusals", () => {
    for (const status of [429, 500, 502, 503, 504])
      expect(decideRetry(response(status), "safe"), `HTTP ${status}`).toBe("retry");
    for (const status of [200, 400, 401, 403, 404, 409, 422, 501, 505])
      expect(decideRetry(response(status), "safe"), `HTTP ${status}`).toBe("stop");
    expect(decideRetry(reset, "safe")).toBe("retry");
    expect(decideRetry(refused, "safe")).toBe("retry");
    expect(decideRetry(closed, "safe")).toBe("stop");
  });

  it("repeats unsafe writes only where they provably were not performed (429, refused)", () => {
    expect(decideRetry(response(429), "unsafe")).toBe("retry");
    expect(decideRetry(refused, "unsafe")).toBe("retry");
    for (const status of [500, 502, 503, 504])
      expect(decideRetry(response(status), "unsafe"), `HTTP ${status}`).toBe("ambiguous");
    expect(decideRetry(reset, "unsafe")).toBe("ambiguous");
    for (const status of [200, 400, 404, 409, 501])
      expect(decideRetry(response(status), "unsafe"), `HTTP ${status}`).toBe("stop");
    expect(decideRetry(closed, "unsafe")).toBe("stop");
  });
});

describe("Retry-After with the client's defaults", () => {
  it("is honoured up to 30 s, as docs/guides/reliability.md says: 20 s waits 20 s, 45 s waits 30 s", () => {
    expect(DEFAULT_RETRY_OPTIONS.retryAfterCapMs).toBe(30_000);
    expect(retryDelayMs(1, "20", DEFAULT_RETRY_OPTIONS, () => 0)).toBe(20_000);
    expect(retryDelayMs(1, "45", DEFAULT_RETRY_OPTIONS, () => 0)).toBe(30_000);
  });
});
