/**
 * Clients that keep their pace in one store (the processes of one machine, pace-store.ts) keep to
 * one rate: a refusal one meets slows the others, their starts are one rate apart, a look for a turn
 * not yet due changes nothing, and a store that cannot be had leaves each to its last view.
 */
import { describe, expect, it } from "vitest";
import { fakeClock, letPass } from "./support/fake-pacer-clock";
import {
  AdaptivePacer,
  initialPaceState,
  LATE_START_KEEPS_PACE_MS,
  MAX_LOOK_OFFSET_MS,
  type PaceEvent,
  type PaceState,
  type PaceStore,
} from "../../../sdk";

describe("the pace several clients keep in one store (one machine's processes)", () => {
  /** A store in memory, as the provider's file keeps it for the processes of a machine. */
  function memoryStore(): PaceStore & { state: PaceState; broken: boolean; changes: number } {
    const store = {
      state: initialPaceState(),
      broken: false,
      changes: 0,
      transact<T>(change: (state: PaceState) => T): T {
        if (store.broken) throw new Error("the store cannot be had");
        store.changes += 1;
        return change(store.state);
      },
      /** A client not yet pacing by the store looks here for another's refusal (the file store's `stat`). */
      changed: (): PaceState => structuredClone(store.state),
    };
    return store;
  }

  /** The same, read without a change as the provider's file is (peek). */
  function peekableStore() {
    const store = Object.assign(memoryStore(), { peeks: 0 });
    const peek = (): PaceState => {
      store.peeks += 1;
      return structuredClone(store.state);
    };
    return Object.assign(store, { peek });
  }

  it("looks for a turn not yet due without changing the pace: one change per start, however long it waits", async () => {
    const clock = fakeClock();
    const store = peekableStore();
    const pacer = new AdaptivePacer({ clock, store });
    Object.assign(store.state, { slowStart: false, rate: 10, nextStartAt: clock.at + 100 });
    const before = clock.at;
    await pacer.acquire();
    expect(clock.at - before).toBeGreaterThanOrEqual(100);
    expect(clock.at - before).toBeLessThanOrEqual(100 + MAX_LOOK_OFFSET_MS);
    expect([store.peeks, store.changes]).toEqual([2, 1]);
    // Without a look that changes nothing, the wait is a change too.
    const plain = memoryStore();
    Object.assign(plain.state, { slowStart: false, rate: 10, nextStartAt: clock.at + 100 });
    await new AdaptivePacer({ clock, store: plain }).acquire();
    expect(plain.changes).toBe(2);
  });

  it("keeps the pace's times for a start at most 5 ms late, and starts them again from a later one", async () => {
    expect(LATE_START_KEEPS_PACE_MS).toBe(5);
    const clock = fakeClock();
    const store = memoryStore();
    const pacer = new AdaptivePacer({ clock, store });
    const due = clock.at;
    Object.assign(store.state, { slowStart: false, rate: 10, nextStartAt: due });
    clock.at = due + LATE_START_KEEPS_PACE_MS;
    await pacer.acquire();
    expect(store.state.nextStartAt).toBe(due + 100);
    clock.at = due + 100 + LATE_START_KEEPS_PACE_MS + 1;
    await pacer.acquire();
    expect(store.state.nextStartAt).toBe(clock.at + 100);
  });

  it("keeps one rate: a refusal one client meets slows the other, which says so once", async () => {
    const clock = fakeClock();
    const store = memoryStore();
    const one = new AdaptivePacer({ clock, store });
    const other = new AdaptivePacer({ clock, store });
    const events: PaceEvent[] = [];
    other.listen((event) => events.push(event));
    // Another client met a refusal; the pace climbed since to 10.
    Object.assign(store.state, { slowStart: false, rate: 10 });
    expect(other.currentRate()).toBe(2); // its last view
    const ticket = await other.acquire();
    expect(other.currentRate()).toBe(10);
    letPass(one, 8);
    const refusedBy = await one.acquire();
    one.refused(refusedBy, 1_000);
    // One decrease, from what passed in the last second (8 requests): 0.9 × 8.
    expect(store.state.rate).toBeCloseTo(7.2);
    // The other's request was sent before the decrease: its refusal is of the same episode.
    other.refused(ticket, 1_000);
    expect(store.state.rate).toBeCloseTo(7.2);
    const [first, second] = [await other.acquire(), await other.acquire()];
    expect(second - first).toBe(1);
    expect(events.filter((e) => e.cause === "shared")).toHaveLength(1);
    // Every start of either is one start of the one pace: the tickets never repeat.
    expect(new Set([ticket, refusedBy, first, second]).size).toBe(4);
  });

  it("starts the clients' requests one rate apart, not one rate each", async () => {
    const clock = fakeClock();
    const store = memoryStore();
    const pacers = [new AdaptivePacer({ clock, store }), new AdaptivePacer({ clock, store })];
    (pacers[0] as AdaptivePacer).refused(await (pacers[0] as AdaptivePacer).acquire(), 0);
    store.state.rate = 4;
    const times: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      await (pacers[i % 2] as AdaptivePacer).acquire();
      times.push(clock.now());
    }
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    expect(gaps.slice(1)).toEqual([250, 250, 250, 250]);
  });

  it("goes on with its last view of the pace when the store cannot be had", async () => {
    const clock = fakeClock();
    const store = memoryStore();
    const pacer = new AdaptivePacer({ clock, store });
    letPass(pacer, 4);
    await pacer.acquire();
    store.broken = true;
    pacer.refused(await pacer.acquire(), 2_000);
    expect(pacer.currentRate()).toBeCloseTo(0.9 * 2);
    const before = clock.now();
    await pacer.acquire();
    expect(clock.now()).toBe(before + 2_000);
  });
});
