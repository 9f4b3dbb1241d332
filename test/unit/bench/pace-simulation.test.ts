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
        // Every `up` succeeds with room to spare: no request refused for more than a quarter of the
        // default rateLimitWait (600 s), beyond which its operation fails (17.6 s and 87.7 s at most).
        expect(outcome.longestRefused, `latency ${latencyMs} ms: longest refused`).toBeLessThanOrEqual(150);
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

  it("4 clients × 30 at 10/s started up to 2.1 s apart, as real `up`s start: at most 1.15 requests per request passed (the e2e's bound)", async () => {
    // Started together the clients meet the limit in one window and refuse about one request each
    // (above). Started apart, as the CLI's engines start on a busy machine (the e2e's stacks began
    // 300–800 ms apart), each newcomer finds the windows already full and its refusals until the
    // others have slowed are the cost: up to 15 refusals of 120 here, whatever the decrease, the initial
    // rate, the slow start or a hold of the whole client for the Retry-After (all tried). The
    // issue's 1.05 is met only by starts within one window.
    for (const { staggerMs, latencyMs, outcome } of await staggeredStarts(false))
      expect(outcome.sent, `starts ${staggerMs} ms apart, latency ${latencyMs} ms`).toBeLessThanOrEqual(
        1.15 * 120,
      );
  });

  it(
    "on one machine (one pace for every client): 4 × 30 at 10/s started up to 2.1 s apart refuses at most 6 (1.05 requests per request passed); the three rows at most 1 in 100",
    { timeout: 120_000 },
    async () => {
      // The processes of one machine keep one pace (provider/platform-access/pace-store.ts), as one client
      // would: a newcomer takes its turns in the pace the others found, instead of finding its own.
      for (const { staggerMs, latencyMs, outcome } of await staggeredStarts(true))
        expect(outcome.refused, `starts ${staggerMs} ms apart, latency ${latencyMs} ms`).toBeLessThanOrEqual(
          6,
        );
      for (const [clients, requests, rate] of [
        [1, 2000, 20],
        [8, 250, 20],
        [20, 500, 50],
      ] as const) {
        const outcome = await simulatePace({
          clients,
          requestsPerClient: requests,
          rate,
          concurrency: 16,
          latencyMs: 20,
          oneMachine: true,
        });
        expect(outcome.refused / outcome.sent, `${clients} × ${requests} at ${rate}/s`).toBeLessThanOrEqual(
          0.01,
        );
      }
    },
  );

  it("plays a scenario out alike every run: the pacers' look offsets come from the scenario's seed", async () => {
    // Drawn from Math.random, they made the one-machine rows differ from run to run, and the bound
    // of 6 refusals above failed now and then (a unit run of the whole suite under load).
    const scenario = {
      clients: 4,
      requestsPerClient: 30,
      rate: 10,
      concurrency: 16,
      latencyMs: 20,
      staggerMs: 700,
    };
    const once = await simulatePace({ ...scenario, oneMachine: true });
    const again = await simulatePace({ ...scenario, oneMachine: true });
    expect(again).toEqual(once);
    expect(once.sent).toBeGreaterThanOrEqual(120);
  });
});

/** 4 clients × 30 at 10/s, started 0–700 ms apart, at 20–150 ms latency: each start and latency's outcome. */
async function staggeredStarts(oneMachine: boolean) {
  const outcomes = [];
  for (const staggerMs of [0, 100, 250, 400, 700])
    for (const latencyMs of [20, 80, 150]) {
      const scenario = { clients: 4, requestsPerClient: 30, rate: 10, concurrency: 16, latencyMs, staggerMs };
      outcomes.push({ staggerMs, latencyMs, outcome: await simulatePace({ ...scenario, oneMachine }) });
    }
  return outcomes;
}
