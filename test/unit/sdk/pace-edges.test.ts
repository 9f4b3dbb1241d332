/**
 * Edges of the pace no other test reached (each found by a mutation that survived the suite): a
 * refusal's wait never ends before the client's pause; an answer of a server fault (5xx) is no
 * request that passed the limit.
 */
import { describe, expect, it } from "vitest";
import { AdaptivePacer } from "../../../sdk/pacer";
import { RateLimitWait } from "../../../sdk/rate-limit-wait";
import { fakeClock } from "./support/fake-pacer-clock";

describe("the edges of the pace", () => {
  it("a refusal's wait is at least what is left of the client's pause, not its own shorter Retry-After", async () => {
    const clock = fakeClock();
    const pacer = new AdaptivePacer({ clock });
    const [first, second] = [await pacer.acquire(), await pacer.acquire()];
    expect(pacer.refused(first, 5_000)).toBe(5_000); // over 1 s: every start of the client holds
    clock.at += 1_000;
    // Its own Retry-After says 1 s, but the client is paused 4 s more: sent at 1 s it would be refused again.
    expect(pacer.refused(second, 1_000)).toBe(4_000);
  });

  it("counts an answer of the platform's own (below 500) as a request that passed, a server fault (5xx) not", async () => {
    const clock = fakeClock();
    const pacer = new AdaptivePacer({ clock });
    const passed: number[] = [];
    const counting = Object.assign(Object.create(pacer) as AdaptivePacer, {
      passed: (ticket: number) => void passed.push(ticket),
    });
    const wait = new RateLimitWait(counting, 60_000, () => clock.now());
    for (const status of [500, 502, 503, 504]) wait.onAnswer({ kind: "response", status }, 7, undefined);
    expect(passed).toEqual([]);
    for (const status of [200, 404]) wait.onAnswer({ kind: "response", status }, 8, undefined);
    expect(passed).toEqual([8, 8]);
  });
});
