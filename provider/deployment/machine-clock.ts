/**
 * The clock the one-owner record's waits and declaration times, the pace's times and the quota
 * share's re-reads go by: the machine's monotonic clock, the SDK's (sdk/machine-clock.ts says why
 * not the wall clock, nor a per-process one).
 *
 * Not the wall clock: a wall clock stepped forward (NTP, a VM resumed) would end a delete's wait for
 * a starting provider process early — failing open — and one stepped back would stretch it.
 */
export { machineMs } from "../../sdk/machine-clock";
