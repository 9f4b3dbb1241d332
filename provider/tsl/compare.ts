/**
 * Comparison of a managed configuration value with what the platform reports, without the TSL
 * model (a refresh of 1,200 devices should read configurations, not models too).
 *
 * The platform answers in its own shape: STRUCT children keyed by full id, integers beyond 2^53 as
 * strings of digits (the SDK's lossless parser), ENUM keys as numbers. A user may have written the
 * same value with short child ids, a LONG as a string, an ENUM key as a string. Only what the user
 * manages is compared: STRUCT children the user left out are not this resource's business.
 */
import { isPlainObject } from "./validate";

/** A scalar in a form where `60`, `"60"` and a lossless `"9007199254740993"` compare by their digits. */
function canonicalScalar(value: unknown): unknown {
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : value;
  if (typeof value === "bigint") return value.toString();
  return value;
}

/** The full id of the child a user names `key` (short or full). */
function childId(parentId: string, key: string): string {
  return key.startsWith(`${parentId}.`) ? key : `${parentId}.${key}`;
}

/** The platform's value of a STRUCT child the user names `key` (short or full id). */
export function childValue(
  actual: Readonly<Record<string, unknown>>,
  parentId: string,
  key: string,
): unknown {
  if (Object.hasOwn(actual, key)) return actual[key];
  const full = `${parentId}.${key}`;
  if (Object.hasOwn(actual, full)) return actual[full];
  const prefix = `${parentId}.`;
  return key.startsWith(prefix) ? actual[key.slice(prefix.length)] : undefined;
}

/**
 * Whether the platform's `actual` value matches the managed `desired` value of the property (or
 * STRUCT, or ARRAY element) `parentId`.
 */
export function sameValue(desired: unknown, actual: unknown, parentId: string): boolean {
  if (isPlainObject(desired)) {
    if (!isPlainObject(actual)) return false;
    return Object.entries(desired).every(([key, value]) =>
      sameValue(value, childValue(actual, parentId, key), childId(parentId, key)),
    );
  }
  if (Array.isArray(desired)) {
    if (!Array.isArray(actual) || actual.length !== desired.length) return false;
    return desired.every((element, index) => sameValue(element, actual[index], parentId));
  }
  return canonicalScalar(desired) === canonicalScalar(actual);
}

/**
 * The platform's value in the user's shape, for a refresh to show as the new input: a STRUCT keeps
 * the user's keys (and only those the platform reports), anything else is the platform's value.
 */
export function inUserShape(desired: unknown, actual: unknown, parentId: string): unknown {
  if (!isPlainObject(desired) || !isPlainObject(actual)) return actual;
  const shaped: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(desired)) {
    const reported = childValue(actual, parentId, key);
    if (reported !== undefined) shaped[key] = inUserShape(value, reported, childId(parentId, key));
  }
  return shaped;
}
