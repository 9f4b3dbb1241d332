/**
 * What the provider prints while it waits out the platform's rate limit: a status line on the row of
 * the resource whose request was refused (or slowed by the refusal of another process sharing its pace), at most one a
 * second, instead of silence while a deployment slows to its share of the application's rate.
 */
import type { PaceEvent, PaceListener } from "../../sdk/index";
import { log } from "../output/log";
import { machineMs } from "../deployment/machine-clock";

/** At most one line a second. */
const MIN_INTERVAL_MS = 1_000;

/** The line for one pace event. */
export function paceLine(event: PaceEvent, now: number): string {
  const pause = Math.max(0, event.pausedUntil - now);
  const rate = event.rate >= 10 ? event.rate.toFixed(0) : event.rate.toFixed(1);
  const cause =
    event.cause === "refused"
      ? `the platform refused ${event.refusals === 1 ? "a request" : `${event.refusals} requests`} for its rate limit`
      : "another provider process on this machine met the platform's rate limit";
  const wait = pause >= 100 ? `pausing ${(pause / 1000).toFixed(1)} s, then ` : "";
  return `${cause}: ${wait}sending ${rate} requests a second, more while they pass`;
}

/** A listener that reports pace events through `log.status`, throttled; `now` is the pacer's clock. */
export function paceProgress(now: () => number = machineMs): PaceListener {
  let lastAt = Number.NEGATIVE_INFINITY;
  return (event) => {
    const at = now();
    if (at - lastAt < MIN_INTERVAL_MS) return;
    lastAt = at;
    // A status line is best effort: its delivery never fails or delays a request.
    log.status(paceLine(event, at)).catch(() => undefined);
  };
}
