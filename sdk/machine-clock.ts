/**
 * The clock every wait of the pacing goes by: the machine's monotonic clock (CLOCK_MONOTONIC on
 * Linux, mach_absolute_time on macOS, QueryPerformanceCounter on Windows, as libuv reads them), in
 * milliseconds.
 *
 * Not the wall clock: one stepped back an hour (NTP, a VM resumed, a user's `date -s`) would make a
 * wait for a time an hour away last an hour, and one stepped forward would end every wait at once.
 * And not a per-process clock (`performance.now()`): the processes of one machine that share a pace
 * compare times one of them wrote with their own now, and the monotonic clock is one clock for
 * every process of the machine (its origin is the machine's boot, not the process's start).
 */

/** Milliseconds on the machine's monotonic clock. */
export function machineMs(): number {
  return Number(process.hrtime.bigint() / 1_000_000n);
}
