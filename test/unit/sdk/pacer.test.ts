/**
 * The pacer on a fake clock: each documented number of the pacing (DESIGN.md "Sharing the platform",
 * docs/guides/fleets-at-scale.md "The platform's rate limit") has a test here that fails when it
 * changes — unpaced until the first refusal, the first rate from what passed in the last second,
 * ×0.7 once per episode, +1 request a second per second of requests that pass, a floor of 0.5 a
 * second, a pause of Retry-After (1 s without one, 30 s at most) — and the shared refusals of the
 * other processes slow this one as its own do.
 */
import { describe, expect, it } from "vitest";
import {
  AdaptivePacer,
  DECREASE_FACTOR,
  DEFAULT_PAUSE_MS,
  INCREASE_PER_SECOND,
  MAX_PAUSE_MS,
  MIN_RATE,
  type PaceEvent,
  type PaceShare,
  type PaceSignal,
  type PacerClock,
} from "../../../sdk";

/** Virtual time: a sleep moves the clock and returns at once. */
function fakeClock(start = 1_000_000): PacerClock & { at: number; slept: number[] } {
  const clock = {
    at: start,
    slept: [] as number[],
    now: () => clock.at,
    sleep: async (ms: number) => {
      clock.slept.push(ms);
      clock.at += ms;
    },
  };
  return clock;
}

/** Starts `count` requests one after another; their start times (`tickets`: their tickets). */
async function starts(pacer: AdaptivePacer, clock: PacerClock, count: number, tickets: number[] = []) {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    tickets.push(await pacer.acquire());
    times.push(clock.now());
  }
  return times;
}

describe("the pacer's numbers", () => {
  it("documents them: ×0.7, +1/s per second, at least 0.5/s, 1 s without Retry-After, 30 s at most", () => {
    expect([DECREASE_FACTOR, INCREASE_PER_SECOND, MIN_RATE, DEFAULT_PAUSE_MS, MAX_PAUSE_MS]).toEqual([
      0.7, 1, 0.5, 1_000, 30_000,
    ]);
  });

  it("does not pace a client the platform never refused", async () => {
    const clock = fakeClock();
    const pacer = new AdaptivePacer({ clock });
    const times = await starts(pacer, clock, 200);
    expect(new Set(times)).toEqual(new Set([clock.at]));
    expect(clock.slept).toEqual([]);
    expect(pacer.currentRate()).toBeUndefined();
  });

  it("on a first refusal: pauses for Retry-After, then keeps to 0.7 × what passed in the last second", async () => {
    const clock = fakeClock();
    const pacer = new AdaptivePacer({ clock });
    // 20 requests pass within the last second; one that passed earlier does not count.
    pacer.passed(clock.at);
    clock.at += 1_500;
    for (let i = 0; i < 20; i += 1) {
      pacer.passed(clock.at);
      clock.at += 10;
    }
    const ticket = await pacer.acquire();
    expect(pacer.refused(ticket, 2_000)).toBe(2_000);
    expect(pacer.currentRate()).toBeCloseTo(14, 9);
    const pausedUntil = clock.at + 2_000;
    const times = await starts(pacer, clock, 4);
    times.forEach((t, i) => expect(t - pausedUntil).toBeCloseTo((i * 1000) / 14, 6));
  });

  it("decreases once per episode: refusals of requests sent before the decrease only extend the pause", async () => {
    const clock = fakeClock();
    const pacer = new AdaptivePacer({ clock });
    const inFlight: number[] = [];
    await starts(pacer, clock, 16, inFlight);
    for (let i = 0; i < 10; i += 1) pacer.passed(clock.at);
    clock.at += 5;
    pacer.refused(inFlight[0] as number, 1_000);
    expect(pacer.currentRate()).toBeCloseTo(7, 9);
    for (const ticket of inFlight.slice(1)) pacer.refused(ticket, 1_000);
    expect(pacer.currentRate()).toBeCloseTo(7, 9);
    // A request sent after the decrease and refused starts the next episode.
    const next = await pacer.acquire();
    pacer.refused(next, 1_000);
    expect(pacer.currentRate()).toBeCloseTo(7 * DECREASE_FACTOR, 9);
  });

  it("without Retry-After pauses 1 s; a Retry-After beyond the cap pauses for the cap", async () => {
    const clock = fakeClock();
    const pacer = new AdaptivePacer({ clock, maxPauseMs: 40 });
    expect(pacer.refused(await pacer.acquire(), undefined)).toBe(40);
    const uncapped = new AdaptivePacer({ clock });
    expect(uncapped.refused(await uncapped.acquire(), undefined)).toBe(DEFAULT_PAUSE_MS);
    expect(uncapped.refused(await uncapped.acquire(), 3_600_000)).toBe(MAX_PAUSE_MS);
  });

  it("recovers additively: one request a second more for each second of requests that pass", async () => {
    const clock = fakeClock();
    const pacer = new AdaptivePacer({ clock });
    for (let i = 0; i < 10; i += 1) pacer.passed(clock.at);
    pacer.refused(await pacer.acquire(), 0);
    expect(pacer.currentRate()).toBeCloseTo(7, 9);
    // Ten seconds of requests at the pace, each passing: about +10 requests a second.
    const startedAt = clock.at;
    while (clock.at - startedAt < 10_000) pacer.passed(await pacer.acquire());
    const rate = pacer.currentRate() as number;
    expect(rate).toBeGreaterThan(7 + 9);
    expect(rate).toBeLessThan(7 + 11);
  });

  it("never keeps to less than 0.5 requests a second", async () => {
    const clock = fakeClock();
    const pacer = new AdaptivePacer({ clock });
    for (let i = 0; i < 12; i += 1) pacer.refused(await pacer.acquire(), 0);
    expect(pacer.currentRate()).toBe(MIN_RATE);
    const times = await starts(pacer, clock, 3);
    expect((times[2] as number) - (times[1] as number)).toBe(2_000);
  });
});

describe("the pace the processes of a deployment share", () => {
  function share(): PaceShare & { told: PaceSignal[]; pending: PaceSignal[] } {
    const link = {
      told: [] as PaceSignal[],
      pending: [] as PaceSignal[],
      refused: (signal: PaceSignal) => void link.told.push(signal),
      othersRefusals: async () => link.pending.splice(0),
    };
    return link;
  }

  it("tells the share of each decrease, once per episode", async () => {
    const clock = fakeClock();
    const link = share();
    const pacer = new AdaptivePacer({ clock, share: link });
    for (let i = 0; i < 10; i += 1) pacer.passed(clock.at);
    const ticket = await pacer.acquire();
    pacer.refused(ticket, 1_000);
    pacer.refused(ticket, 1_000);
    expect(link.told).toEqual([{ at: clock.at, pausedUntil: clock.at + 1_000, rate: 7 }]);
  });

  it("takes another process's refusal as its own: its pause and its lower rate", async () => {
    const clock = fakeClock();
    const link = share();
    const events: PaceEvent[] = [];
    const pacer = new AdaptivePacer({ clock, share: link });
    pacer.listen((event) => events.push(event));
    await pacer.acquire();
    const pausedUntil = clock.at + 3_000;
    link.pending.push({ at: clock.at - 10, pausedUntil, rate: 4 });
    await pacer.acquire();
    expect(clock.at).toBe(pausedUntil);
    expect(pacer.currentRate()).toBe(4);
    await pacer.acquire();
    expect(clock.at).toBe(pausedUntil + 250);
    expect(events).toEqual([{ rate: 4, pausedUntil, refusals: 0, cause: "shared" }]);
    // A higher rate another process keeps to does not speed this one up.
    link.pending.push({ at: clock.at, pausedUntil: 0, rate: 9 });
    await pacer.acquire();
    expect(pacer.currentRate()).toBe(4);
  });
});
