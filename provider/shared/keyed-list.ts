/**
 * Checking a list input whose items are keyed by serial number (a fleet's devices, an RPS fleet's
 * records): one place for the list rules every such kind shares.
 */
import { isPlainObject } from "../../sdk/plain-object";
import { describeInput, isUnknown, UNKNOWN, type CheckFailure } from "./input-checks";

/** What one item's checker found: its failures, whether a value in it is unknown, its entry. */
export interface KeyedItem<T> {
  failures: CheckFailure[];
  /** True when a value the item needs is not known yet (a preview). */
  unknown: boolean;
  /** The serial number and entry to keep, or undefined to leave the item out of the entries. */
  keep?: { sn: string; entry: T };
}

/** How to check one kind's list: its property, its words for messages and its item checker. */
export interface KeyedListSpec<T> {
  /** The input's property name, e.g. "devices". */
  property: string;
  /** One item in a user's words, e.g. "device". */
  item: string;
  /** The item's shape in messages, e.g. "{ sn, name, … }". */
  shape: string;
  /** Builds a failure for a property of the resource. */
  failure: (property: string, reason: string) => CheckFailure;
  /** Checks one plain-object item at `index`. */
  checkItem: (item: Record<string, unknown>, index: number) => KeyedItem<T>;
}

/**
 * Checks a list (already parsed from a JSON string if it was one) and returns its entries keyed by
 * serial number — or UNKNOWN when the list or a value an item needs is not known yet. Serial
 * numbers must be unique without regard to case; a repeat names the first index that had it.
 */
export function checkKeyedList<T>(
  list: unknown,
  spec: KeyedListSpec<T>,
): { entries: Record<string, T> | typeof UNKNOWN; failures: CheckFailure[] } {
  const { property, item, shape, failure } = spec;
  if (list === undefined || list === null) {
    return {
      entries: {},
      failures: [failure(property, `is required: a list of ${shape} (it may be empty)`)],
    };
  }
  if (isUnknown(list)) return { entries: UNKNOWN, failures: [] };
  if (!Array.isArray(list))
    return { entries: {}, failures: [failure(property, `must be a list of ${item}s`)] };
  const failures: CheckFailure[] = [];
  const entries: Record<string, T> = {};
  const firstIndex = new Map<string, number>();
  let unknown = false;
  for (const [index, value] of (list as unknown[]).entries()) {
    if (!isPlainObject(value)) {
      if (isUnknown(value)) unknown = true;
      else
        failures.push(
          failure(`${property}[${index}]`, `must be an object ${shape}, got ${describeInput(value)}`),
        );
      continue;
    }
    const checked = spec.checkItem(value, index);
    failures.push(...checked.failures);
    if (checked.unknown) unknown = true;
    if (checked.keep === undefined) continue;
    const { sn, entry } = checked.keep;
    const first = firstIndex.get(sn.toUpperCase());
    if (first !== undefined) {
      failures.push(
        failure(
          `${property}[${index}].sn`,
          `(sn ${sn}) repeats the serial number of ${property}[${first}]; list each ${item} once ` +
            "(serial numbers are compared without regard to case)",
        ),
      );
      continue;
    }
    firstIndex.set(sn.toUpperCase(), index);
    entries[sn] = entry;
  }
  return { entries: unknown ? UNKNOWN : entries, failures };
}
