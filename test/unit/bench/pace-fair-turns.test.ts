/**
 * Fair turns among the processes of one machine that share a pace (issue #48): in simulated time
 * (bench/pace-simulation.ts, whose one-machine store has the file store's `peek`, so a waiting
 * request looks without the lock as the provider's does), N processes with the same work finish
 * within 1.2 × of each other. A look offset drawn once per process instead of at every look let
 * the smallest take every due turn: 3 processes × 100 at 10/s finished 20.8–31.0 s (1.49 ×), 8 × 100
 * at 10/s 39.8–81.2 s (2.04 ×), 20 × 50 at 50/s 5.1–20.4 s (4.03 ×); without any offset (0 ms), with
 * 200 ms round trips, 24.6–31.2 s, 56.7–82.5 s and 2.5–21.3 s (8.62 ×). With an offset drawn at
 * every look (the code since 52e6985): 1.03–1.18 ×.
 */
import { describe, expect, it } from "vitest";
import { simulatePace } from "../../../bench/pace-simulation";

describe("processes sharing one pace take fair turns, in simulated time", () => {
  it.each([
    [3, 100, 10],
    [8, 100, 10],
    [20, 50, 50],
  ])(
    "%i processes × %i requests at %i/s on one machine: the last finishes within 1.2 × of the first",
    { timeout: 60_000 },
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
          oneMachine: true,
        });
        const spread = outcome.slowestClient / outcome.fastestClient;
        expect(
          spread,
          `latency ${latencyMs} ms, ${concurrency} in flight: finished ` +
            `${outcome.fastestClient.toFixed(1)}–${outcome.slowestClient.toFixed(1)} s`,
        ).toBeLessThanOrEqual(1.2);
      }
    },
  );
});
