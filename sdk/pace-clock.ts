/**
 * The pacer's clock and timer, and what it tells whoever watches it (pacer.ts).
 */
import { machineMs } from "./machine-clock";
import { MAX_LOOK_OFFSET_MS } from "./pace-state";

/**
 * How much later than a turn's time a client looks for it after a look without the lock: 0–{@link
 * MAX_LOOK_OFFSET_MS} ms, drawn at every look, so that clients waiting for one turn come back apart
 * and in no fixed order (drawn once per client, the smallest took every due turn).
 */
export function lookOffsetMs(random: () => number = Math.random): number {
  return Math.floor(random() * (MAX_LOOK_OFFSET_MS + 1));
}

/** The clock and timer of a pacer (tests give a fake one). */
export interface PacerClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /**
   * Draws the look offsets (a number in [0, 1), as Math.random, the default): a simulation gives a
   * seeded one, so that a run of it is the same every time.
   */
  readonly random?: () => number;
}

export const realClock: PacerClock = {
  now: machineMs,
  sleep: (ms) => (ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms))),
};

/** What a pacer tells whoever watches it (a progress line while it waits). */
export interface PaceEvent {
  /** Requests per second the client now keeps to. */
  readonly rate: number;
  /** Until when nothing starts, on the machine's monotonic clock (machine-clock.ts). */
  readonly pausedUntil: number;
  /** Refusals this pacer met (its own; not those another client sharing its pace met). */
  readonly refusals: number;
  /** `refused`: one of this client's requests; `shared`: another client's, that shares the pace. */
  readonly cause: "refused" | "shared";
}

/** Receives pace events; exceptions it throws are ignored. */
export type PaceListener = (event: PaceEvent) => void;
