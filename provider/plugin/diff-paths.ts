/**
 * Property paths of a plugin diff, as the engine parses them (`name`, `properties.reportInterval`,
 * `devices["240000A10003"].name`), and the kind of change of one value.
 */
import type { PluginDiff, PropertyChange } from "./contract";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The path of `keys` below the top-level property `top`: `.key` where it can, `["key"]` otherwise. */
export function propertyPath(top: string, ...keys: string[]): string {
  return keys.reduce(
    (path, key) => (IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`),
    top,
  );
}

function absent(value: unknown): boolean {
  return value === undefined || value === null;
}

/** ADD when only the new value is set, DELETE when only the old one, UPDATE otherwise (`_REPLACE` when it replaces). */
export function changeKind(before: unknown, after: unknown, replaces = false): PropertyChange {
  const kind =
    absent(before) && !absent(after) ? "ADD" : !absent(before) && absent(after) ? "DELETE" : "UPDATE";
  return replaces ? (`${kind}_REPLACE` as PropertyChange) : kind;
}

/** A detailed diff entry of an input. */
export function inputChange(kind: PropertyChange): { kind: PropertyChange; inputDiff: boolean } {
  return { kind, inputDiff: true };
}

/** The diff that changes nothing, keeping every output given as stable. */
export function noChange(stables: readonly string[]): PluginDiff {
  return { changes: false, replaces: [], stables, deleteBeforeReplace: false, detailedDiff: {} };
}
