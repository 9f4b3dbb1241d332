/**
 * A kind's one diff, for both front-ends: exactly what changes (per property path, as the engine
 * parses them: `name`, `properties.reportInterval`, `devices["240000A10003"].name`), what forces a
 * replacement, and which outputs stay known. The plugin answers all of it; the dynamic front-end
 * answers `changes`, `replaces` and `deleteBeforeReplace`, and a fleet's detailed diff (the engine
 * shows the other kinds' detail from old and new inputs, and ignores a dynamic `stables`).
 */

/** How one property (or a fleet's `devices["SN"].field`) changes; the engine's `PropertyDiff.Kind`. */
export type PropertyChange =
  "ADD" | "ADD_REPLACE" | "DELETE" | "DELETE_REPLACE" | "UPDATE" | "UPDATE_REPLACE";

/** A kind's diff: what changes, what forces a replacement, and which outputs stay known. */
export interface KindDiff {
  /** Whether anything changes at all. */
  readonly changes: boolean;
  /** Top-level input names whose change replaces the resource. */
  readonly replaces: readonly string[];
  /** Output names that keep their value through the update (shown known in a plugin's preview). */
  readonly stables: readonly string[];
  readonly deleteBeforeReplace: boolean;
  /** Property paths (`name`, `tags[0]`, `devices["240000A10003"].name`) and how each changes. */
  readonly detailedDiff: Readonly<Record<string, { kind: PropertyChange; inputDiff: boolean }>>;
}

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
export function noChange(stables: readonly string[]): KindDiff {
  return { changes: false, replaces: [], stables, deleteBeforeReplace: false, detailedDiff: {} };
}
