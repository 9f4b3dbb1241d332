/**
 * The one test for a plain object (a STRUCT value, a record's inputs), on its own so that a caller
 * that checks shapes does not load the TSL checks and their schemas with it.
 */

/** A plain object (a STRUCT value), not a list and not null. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
