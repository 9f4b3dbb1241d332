import type { SortSpec } from "../routes/schemas";

/** A value a search can sort on. */
export type SortKey = string | number | bigint | undefined;

type DefinedKey = Exclude<SortKey, undefined>;

function compareKeys(a: DefinedKey, b: DefinedKey): number {
  if (typeof a === "string" || typeof b === "string") {
    const [sa, sb] = [String(a), String(b)];
    return sa < sb ? -1 : sa > sb ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Sorts by each spec in turn (ties fall to the next one), then by the tie-breaker. Items without a
 * value for a property sort after those with one, in either direction, the way SQL's NULLS LAST does.
 */
export function sortItems<T>(
  items: readonly T[],
  sorts: readonly SortSpec[],
  keyOf: (item: T, property: string) => SortKey,
  tieBreak: (a: T, b: T) => number,
): T[] {
  return [...items].sort((a, b) => {
    for (const sort of sorts) {
      const ka = keyOf(a, sort.property);
      const kb = keyOf(b, sort.property);
      if (ka === undefined || kb === undefined) {
        if (ka !== kb) return ka === undefined ? 1 : -1;
        continue;
      }
      const order = compareKeys(ka, kb);
      if (order !== 0) return sort.direction === "desc" ? -order : order;
    }
    return tieBreak(a, b);
  });
}

/** One page of results in the Search_Result shape. */
export interface Page<T> {
  pageSize: number;
  pageNumber: number;
  total: number;
  content: T[];
}

/**
 * Page `pageNumber` (from 1) of `pageSize` items; past the end the content is empty. The page answers
 * with the size it was cut at (smaller than asked when the emulator's `maxPageSize` is).
 */
export function pageOf<T>(items: readonly T[], pageNumber: number, pageSize: number): Page<T> {
  const start = (pageNumber - 1) * pageSize;
  return { pageSize, pageNumber, total: items.length, content: items.slice(start, start + pageSize) };
}

/** Orders ids (strings of digits) numerically. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
