/** Serial numbers as the platform compares them. */

/** Serial numbers are one device (or one RPS record) whatever their case, as the platform compares them. */
export function sameSerial(a: string | undefined, b: string | undefined): boolean {
  return (a ?? "").toUpperCase() === (b ?? "").toUpperCase();
}
