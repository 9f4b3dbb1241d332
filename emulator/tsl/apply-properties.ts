import type { PropertyMap, PropertyValue } from "../state/types";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Removes the property ids a `dropProperties` fault names from a property map: a top-level id drops
 * the property, a STRUCT child id (`<parent>.<child>`, or the short child key as sent) drops that
 * child, and a STRUCT left empty is dropped too. Works on checked values and on raw input alike.
 */
export function withoutDropped<T>(
  values: Record<string, T>,
  dropped: ReadonlySet<string>,
): Record<string, T> {
  if (dropped.size === 0) return values;
  const kept: Record<string, T> = {};
  for (const [id, value] of Object.entries(values)) {
    if (dropped.has(id)) continue;
    if (!isObject(value)) {
      kept[id] = value;
      continue;
    }
    const children = Object.entries(value).filter(
      ([key]) => !dropped.has(key) && !dropped.has(`${id}.${key}`),
    );
    if (children.length > 0) kept[id] = Object.fromEntries(children) as T;
  }
  return kept;
}

/**
 * Writes checked values into a device's configuration. Writes are incremental: properties not named
 * keep their values, and so do STRUCT children not named (a STRUCT merges child by child).
 */
export function mergeInto(configuration: PropertyMap, values: PropertyMap): void {
  for (const [id, value] of Object.entries(values)) {
    const current = configuration[id];
    configuration[id] =
      isObject(value) && isObject(current) ? { ...current, ...value } : (value as PropertyValue);
  }
}
