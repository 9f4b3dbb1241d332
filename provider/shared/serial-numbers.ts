/** Serial numbers as the platform compares them. */

/** Serial numbers are one device (or one RPS record) whatever their case, as the platform compares them. */
export function sameSerial(a: string | undefined, b: string | undefined): boolean {
  return (a ?? "").toUpperCase() === (b ?? "").toUpperCase();
}

/**
 * Compares serial numbers in the order the engine keeps a map keyed by them (its checkpoint sorts
 * keys by their bytes): a batch's outputs written in this order read the same in the run that wrote
 * them as in every later one, whichever of its concurrent writes ended first.
 */
export function bySerial(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
