/**
 * The pacer on a fake clock: each documented number of the pacing (DESIGN.md "Sharing the platform",
 * docs/guides/fleets-at-scale.md "The platform's rate limit") has a test here that fails when it
 * changes — 2 requests a second at first, doubling each second until the first refusal, ×0.9 once
 * per episode (of the rate, or of what passed in the last second when less), then a cubic climb
 * (0.002·(t − K)³ + the rate refused at), a floor of 0.5 a second, the refused request's wait of
 * Retry-After (1 s without one, 30 s at most), every start held for a Retry-After over 1 s, no
 * second decrease while the platform's window may still be full, and the flat of the climb settled
 * at what passed in the second before the episode's latest refusal when less. Clients that keep their pace in
 * one store: pacer-shared-store.test.ts.
 */
import { describe, expect, it, vi } from "vitest";
import { answeredStarts, fakeClock, letPass, starts } from "./support/fake-pacer-clock";
import {
  AdaptivePacer,
  DECREASE_FACTOR,
  DEFAULT_PAUSE_MS,
  CLIENT_PAUSE_ABOVE_MS,
  FULL_WINDOW_MS,
  CUBIC_SCALE,
  INITIAL_RATE,
  MAX_PAUSE_MS,
  MIN_RATE,
  SLOW_START_GAIN,
} from "../../../sdk";

describe("the pacer's numbers", () => {
  it("documents them: 2/s at first, +1 per pass until refused, ×0.9, C = 0.002, 0.5/s, 1 s, 30 s, over 1 s, a full window 1 s", () => {
    expect([INITIAL_RATE, SLOW_START_GAIN, DECREASE_FACTOR, CUBIC_SCALE, MIN_RATE]).toEqual([
      2, 1, 0.9, 0.002, 0.5,
    ]);
    expect([DEFAULT_PAUSE_MS, MAX_PAUSE_MS, CLIENT_PAUSE_ABOVE_MS, FULL_WINDOW_MS]).toEqual([
      1_000, 30_000, 1_000, 1_000,
    ]);
  });

  it("starts at 2 requests a second and doubles every second while everything passes", async () => {
    const clock = fakeClock();
    const pacer = new AdaptivePacer({ clock });
    const times = await starts(pacer, clock, 3);
    expect(times.map((t) => t - (times[0] as number))).toEqual([0, 500, 1000]);
    const from = clock.at;
    while (clock.at - from < 1_000) pacer.passed(await pacer.acquire());
    // One second of passes at a rate growing by one per pass, bounded by what passed: twice or more.
    expect(pacer.currentRate()).toBeGreaterThanOrEqual(2 * INITIAL_RATE);
    expect(pacer.currentRate()).toBeLessThan(3 * INITIAL_RATE);
  });

  it("before the first refusal, lets a request start at once while nothing else is in flight", async () => {
    const clock = fakeClock();
    const pacer = new AdaptivePacer({ clock });
    for (let i = 0; i < 50; i += 1) {
      pacer.passed(await pacer.acquire());
      pacer.release();
    }
    expect(clock.slept).toEqual([]);
    // After a refusal the rate spaces even requests one after another.
    letPass(pacer, 10);
    pacer.refused(await pacer.acquire(), 0);
    pacer.release();
    const first = await pacer.acquire();
    pacer.release();
    await pacer.acquire();
    expect(first).toBeGreaterThan(0);
    expect(clock.slept.length).toBeGreaterThan(0);
  });

  it("never climbs beyond twice what passed in the last second, plus 2", async () => {
    const clock = fakeClock();
    const pacer = new AdaptivePacer({ clock });
    for (let i = 0; i < 100; i += 1) {
      pacer.passed(await pacer.acquire());
      clock.at += 2_000;
    }
    expect(pacer.currentRate()).toBe(INITIAL_RATE + 2);
  });

  it("on a refusal with a Retry-After over 1 s: holds every start for it, then keeps to 0.9 × the rate", async () => {
    const clock = fakeClock();
    const pacer = new AdaptivePacer({ clock });
    letPass(pacer, 10);
    const ticket = await pacer.acquire();
    expect(pacer.refused(ticket, 2_000)).toBe(2_000);
    expect(pacer.currentRate()).toBeCloseTo(1.8, 9);
    const pausedUntil = clock.at + 2_000;
    const times = await starts(pacer, clock, 4);
    times.forEach((t, i) => expect(t - pausedUntil).toBeCloseTo((i * 1000) / 1.8, 6));
  });

  it("on a refusal with a Retry-After of 1 s: only the refused request waits it; the others keep the lowered pace", async () => {
    const clock = fakeClock();
    const pacer = new AdaptivePacer({ clock });
    letPass(pacer, 10);
    const refusedAt = clock.at;
    const ticket = await pacer.acquire();
    pacer.release(); // answered: as the client's executor does, before it tells the pacer how
    expect(pacer.refused(ticket, 1_000)).toBe(1_000);
    const times = await answeredStarts(pacer, clock, 3);
    expect((times[0] as number) - refusedAt).toBeLessThan(1_000);
    expect((times[2] as number) - (times[1] as number)).toBeCloseTo(1000 / 1.8, 6);
  });

  it("on a refusal after less passed in the last second than the rate: 0.9 × what passed", async () => {
    const clock = fakeClock();
    const pacer = new AdaptivePacer({ clock });
    while (pacer.currentRate() < 20) pacer.passed(await pacer.acquire());
    clock.at += 1_500;
    letPass(pacer, 5);
    pacer.refused(await pacer.acquire(), 1_000);
    expect(pacer.currentRate()).toBeCloseTo(4.5, 9);
  });

  it("decreases once per episode: refusals of requests sent before the decrease say nothing new", async () => {
    const clock = fakeClock();
    const pacer = new AdaptivePacer({ clock });
    const inFlight: number[] = [];
    await starts(pacer, clock, 16, inFlight);
    letPass(pacer, 10);
    // Each answered, then told (as the client's executor does).
    pacer.release();
    pacer.refused(inFlight[0] as number, 1_000);
    expect(pacer.currentRate()).toBeCloseTo(1.8, 9);
    for (const ticket of inFlight.slice(1)) {
      pacer.release();
      pacer.refused(ticket, 1_000);
    }
    expect(pacer.currentRate()).toBeCloseTo(1.8, 9);
    // A request sent after the decrease and refused before any sent since passed, within a second:
    // the platform's window may still be full, whatever the rate.
    const refusedFirst = await pacer.acquire();
    pacer.release();
    pacer.refused(refusedFirst, 1_000);
    expect(pacer.currentRate()).toBeCloseTo(1.8, 9);
    // Once one sent since passed, a refusal starts the next episode.
    const passing = await pacer.acquire();
    pacer.release();
    pacer.passed(passing);
    const refusedNext = await pacer.acquire();
    pacer.release();
    letPass(pacer, 10); // more passed in the last second than the rate: the decrease is from the rate
    const climbed = pacer.currentRate();
    pacer.refused(refusedNext, 1_000);
    expect(pacer.currentRate()).toBeCloseTo(climbed * DECREASE_FACTOR, 9);
    // And so does one refused a second after the decrease, though nothing sent since passed.
    const late = await pacer.acquire();
    pacer.release();
    clock.at += FULL_WINDOW_MS;
    letPass(pacer, 10);
    const rate = pacer.currentRate();
    pacer.refused(late, 1_000);
    expect(pacer.currentRate()).toBeCloseTo(rate * DECREASE_FACTOR, 9);
  });

  it("while the platform's window may be full (after a decrease, until a request sent since passes, 1 s at most) sends one request at a time", async () => {
    const clock = fakeClock();
    const pacer = new AdaptivePacer({ clock });
    while (pacer.currentRate() < 20) pacer.passed(await pacer.acquire());
    const refused = await pacer.acquire();
    pacer.release();
    pacer.refused(refused, 1_000);
    const decreasedAt = clock.at;
    const first = await pacer.acquire(); // nothing in flight: at the lowered pace
    const second = await pacer.acquire(); // one in flight: not before it ends, or the second ends
    expect(clock.at - decreasedAt).toBeGreaterThanOrEqual(FULL_WINDOW_MS);
    pacer.release();
    pacer.passed(first);
    pacer.release();
    pacer.passed(second);
    // The platform took a request sent at the lowered rate: two in flight at its pace again.
    const before = clock.at;
    await starts(pacer, clock, 2);
    expect(clock.at - before).toBeLessThan(2 * (1000 / pacer.currentRate()) + 1);
  });

  it("when the episode's first request passes, flattens at what passed in the second before its latest refusal, when that is less", async () => {
    const clock = fakeClock();
    const pacer = new AdaptivePacer({ clock });
    while (pacer.currentRate() < 20) {
      const ticket = await pacer.acquire();
      pacer.release();
      pacer.passed(ticket);
    }
    clock.at += 2_000;
    // A slow start's last second spans two of the platform's windows: 4 passed at the end of one,
    // 10 (its limit) in the next, then a refusal.
    letPass(pacer, 4);
    clock.at += 300;
    letPass(pacer, 10);
    const refused = await pacer.acquire();
    pacer.release();
    pacer.refused(refused, 1_000);
    const decreasedAt = clock.at;
    expect(pacer.currentRate()).toBeCloseTo(14 * DECREASE_FACTOR, 9);
    // Refused again near the window's end: the second before holds the 10 alone.
    clock.at += 800;
    const probe = await pacer.acquire();
    pacer.release();
    pacer.refused(probe, 1_000);
    expect(pacer.currentRate()).toBeCloseTo(14 * DECREASE_FACTOR, 9);
    // The next window: a request sent since the decrease passes. The cubic flattens at 10, not 14.
    clock.at += 150;
    const passing = await pacer.acquire();
    pacer.release();
    pacer.passed(passing);
    const decreasedFor = (clock.at - decreasedAt) / 1000;
    const k = Math.cbrt((10 * (1 - DECREASE_FACTOR)) / CUBIC_SCALE);
    expect(pacer.currentRate()).toBeCloseTo(10 - CUBIC_SCALE * (k - decreasedFor) ** 3, 1);
  });

  it("without Retry-After pauses 1 s; a Retry-After beyond the cap pauses for the cap", async () => {
    const clock = fakeClock();
    const pacer = new AdaptivePacer({ clock, maxPauseMs: 40 });
    expect(pacer.refused(await pacer.acquire(), undefined)).toBe(40);
    const uncapped = new AdaptivePacer({ clock });
    expect(uncapped.refused(await uncapped.acquire(), undefined)).toBe(DEFAULT_PAUSE_MS);
    expect(uncapped.refused(await uncapped.acquire(), 3_600_000)).toBe(MAX_PAUSE_MS);
  });

  it("after a refusal climbs along a cubic: back to the rate refused at after K = ∛(rate·(1−β)/C) s, then above", async () => {
    const clock = fakeClock();
    const pacer = new AdaptivePacer({ clock });
    // Slow start up to 20 a second, then a refusal: 18, and K = ∛(20 × 0.1 ÷ 0.002) = 10 s.
    while (pacer.currentRate() < 20) pacer.passed(await pacer.acquire());
    letPass(pacer, 30);
    pacer.refused(await pacer.acquire(), 0);
    expect(pacer.currentRate()).toBeCloseTo(18, 9);
    const refusedAt = clock.at;
    const rateAfter = async (seconds: number) => {
      while (clock.at - refusedAt < seconds * 1000) pacer.passed(await pacer.acquire());
      return pacer.currentRate();
    };
    // 0.002 × (t − 10)³ + 20, within one request's spacing.
    expect(await rateAfter(5)).toBeCloseTo(19.75, 1);
    expect(await rateAfter(10)).toBeCloseTo(20, 1);
    expect(await rateAfter(15)).toBeCloseTo(20.25, 1);
    expect(await rateAfter(20)).toBeCloseTo(22, 1);
  });

  it("waits by the machine's monotonic clock: a wall clock stepped back an hour during a 2 s pause costs 2 s, not an hour", async () => {
    vi.useFakeTimers({ toFake: ["Date", "hrtime", "setTimeout"] });
    try {
      const pacer = new AdaptivePacer(); // its own clock and timer
      letPass(pacer, 10);
      const ticket = await pacer.acquire();
      pacer.release();
      pacer.refused(ticket, 2_000);
      vi.setSystemTime(Date.now() - 3_600_000);
      let started = false;
      const next = pacer.acquire().then(() => (started = true));
      await vi.advanceTimersByTimeAsync(2_000 + 1_000 / 9);
      expect(started).toBe(true);
      await next;
    } finally {
      vi.useRealTimers();
    }
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
