/** A fake clock for the pacer's tests, and ways to start and answer requests on it. */
import type { AdaptivePacer, PacerClock } from "../../../../sdk/pacer";

/** Virtual time: a sleep moves the clock and returns at once. */
export function fakeClock(start = 1_000_000): PacerClock & { at: number; slept: number[] } {
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
export async function starts(pacer: AdaptivePacer, clock: PacerClock, count: number, tickets: number[] = []) {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    tickets.push(await pacer.acquire());
    times.push(clock.now());
  }
  return times;
}

/** Starts `count` requests one after another, each answered (released) before the next; their start times. */
export async function answeredStarts(pacer: AdaptivePacer, clock: PacerClock, count: number) {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    await pacer.acquire();
    times.push(clock.now());
    pacer.release();
  }
  return times;
}

/** `count` passes now of requests sent before (ticket −1): counted in the last second, no gain. */
export function letPass(pacer: AdaptivePacer, count: number): void {
  for (let i = 0; i < count; i += 1) pacer.passed(-1);
}
