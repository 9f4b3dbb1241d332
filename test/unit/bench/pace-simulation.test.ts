/**
 * The pacer's own cost, in simulated time (bench/pace-simulation.ts: no wall clock, no process, the
 * same figures at every run): K clients that know nothing of each other against the emulator's
 * limiter. The bench's platform-limit table measures the real CLI against the goal (every `up`
 * succeeds, wall ≤ 1.15 × K·M ÷ R plus one command's fixed cost, refused ≤ 5%); this leaves the
 * pacing itself no more than 1.10 of it, so a change to the pacer that spends the margin fails here
 * and not only on a bench nobody ran.
 */
import { describe, expect, it } from "vitest";
import { simulatePace } from "../../../bench/pace-simulation";

describe("the pacer against a rate limit, in simulated time", () => {
  it.each([
    [1, 2000, 20],
    [8, 250, 20],
    [20, 500, 50],
  ])(
    "%i clients × %i requests at %i/s: ≤ 1.10 × the limit's floor, ≤ 5 in 100 refused",
    { timeout: 120_000 },
    async (clients, requests, rate) => {
      for (const [latencyMs, concurrency] of [
        [20, 16],
        [200, 64],
      ] as const) {
        const outcome = await simulatePace({
          clients,
          requestsPerClient: requests,
          rate,
          concurrency,
          latencyMs,
        });
        expect(outcome.ratio, `latency ${latencyMs} ms, ${concurrency} in flight`).toBeLessThanOrEqual(1.1);
        expect(outcome.refused / outcome.sent).toBeLessThanOrEqual(0.05);
      }
    },
  );

  it("4 clients × 30 at 10/s (the e2e test's, in simulation): at most 6 refusals, the issue's 1.05 adds per device", async () => {
    const outcome = await simulatePace({
      clients: 4,
      requestsPerClient: 30,
      rate: 10,
      concurrency: 16,
      latencyMs: 20,
    });
    expect(outcome.refused).toBeLessThanOrEqual(6);
  });
});
