/**
 * Check failures as the engine receives them, through either front-end. The engine prints a
 * failure as `property P value V has a problem: …`, where V is the input found under the key P at
 * the top level of the resource's inputs; for a nested path (`tags[0]`,
 * `properties.alarmThreshold.high`, `devices[3].sn`) it finds nothing and prints `value {<nil>}`
 * beside the real value (Pulumi 3.259's step generator). Such a failure goes on no property: the
 * engine then prints `has a problem: …` with the reason alone, which names the path and the value.
 */
import type { CheckFailure } from "./input-checks";

/** A top-level input's name: no `.` and no `[`. */
function isTopLevel(property: string): boolean {
  return !/[.[]/.test(property);
}

/** The failures with nested paths moved off their property (their reasons already name the path). */
export function engineFailures(failures: readonly CheckFailure[]): CheckFailure[] {
  return failures.map((failure) =>
    isTopLevel(failure.property) ? failure : { property: "", reason: failure.reason },
  );
}
