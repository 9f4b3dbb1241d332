/**
 * The clock the one-owner record's waits and declaration times go by: the machine's monotonic clock
 * (CLOCK_MONOTONIC on Linux, mach_absolute_time on macOS, QueryPerformanceCounter on Windows, as
 * libuv reads them), in milliseconds.
 *
 * Not the wall clock: a wall clock stepped forward (NTP, a VM resumed) would end a delete's wait for
 * a starting provider process early — failing open — and one stepped back would stretch it. And
 * not a per-process clock: a declaration time one provider process publishes is compared with
 * another process's now, and the monotonic clock is one clock for every process of the machine.
 */

/** Milliseconds on the machine's monotonic clock (its origin is the machine's, not this process's). */
export function machineMs(): number {
  return Number(process.hrtime.bigint() / 1_000_000n);
}
