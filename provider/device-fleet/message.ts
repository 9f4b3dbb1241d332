/**
 * The plan of a fleet as one message, printed at preview (and `up`): `pulumi preview --diff` of a
 * large fleet would list every entry, and a pull request's reviewer wants the counts and the
 * serial numbers that change, e.g.
 *
 *   DeviceFleet site-a: 3 to add (…), 2 to update (240000A10003: name "warehouse-humidity" →
 *   "warehouse-humidity-2"; …), 1 to remove (…), 9,994 unchanged
 */
import { describeChanges } from "../device/desired";
import type { FleetEntries, OnRemove } from "./inputs";
import type { FleetPlan } from "./plan";
import type { FleetLedger } from "./state";

/** Serial numbers shown per category; the rest are counted. */
export const SHOWN_PER_CATEGORY = 20;

const count = (n: number) => n.toLocaleString("en-US");

/** `a, b, c and 7 more`. */
export function listSome(items: readonly string[], limit = SHOWN_PER_CATEGORY, separator = ", "): string {
  const shown = items.slice(0, limit).join(separator);
  return items.length > limit ? `${shown} and ${count(items.length - limit)} more` : shown;
}

function category(label: string, items: readonly string[], separator?: string): string | undefined {
  return items.length === 0
    ? undefined
    : `${count(items.length)} ${label} (${listSome(items, SHOWN_PER_CATEGORY, separator)})`;
}

/** The message of a plan against an existing fleet. */
export function describePlan(
  fleet: string,
  plan: FleetPlan,
  ledger: FleetLedger,
  declared: FleetEntries,
  onRemove: OnRemove,
): string {
  const updates = plan.updates.map(
    ({ sn, fields }) => `${sn}: ${describeChanges(ledger.appliedOf(sn) ?? {}, declared[sn] ?? {}, fields)}`,
  );
  const parts = [
    category("to add", plan.adds),
    category("to update", updates, "; "),
    category(onRemove === "release" ? "to release (left on the platform)" : "to remove", plan.removals),
    plan.marks.length === 0 ? undefined : `${count(plan.marks.length)} to give this stack's owner tag`,
    `${count(plan.unchanged)} unchanged`,
  ].filter((part) => part !== undefined);
  return `DeviceFleet ${fleet}: ${parts.join(", ")}`;
}

/** What a new fleet will find on the platform, for its first preview. */
export interface Adoptable {
  /** Declared devices already in the application. */
  readonly onPlatform: number;
  /** Of those, the ones that already match their declaration (adopted without a write). */
  readonly unchanged: number;
  /** Of those, the ones tagged with another project: retagged by their PUT (counted as updated). */
  readonly otherProject: string[];
  /** Whether `adoptExisting: false` makes every device already on the platform fail instead. */
  readonly refused?: boolean;
  /** Of those, `sn (project/stack)` of each another stack's owner tag names (refused; not in takeOver). */
  readonly otherStack?: string[];
}

/** The message of a fleet new to the stack. */
export function describeNewFleet(fleet: string, declared: FleetEntries, adoptable?: Adoptable): string {
  const serials = Object.keys(declared);
  const head = `DeviceFleet ${fleet}: ${count(serials.length)} to add`;
  if (!adoptable || adoptable.onPlatform === 0) return `${head} (${listSome(serials)})`;
  const added = serials.length - adoptable.onPlatform;
  if (adoptable.refused) {
    return (
      `${head}: ${count(adoptable.onPlatform)} already on the platform cannot be adopted (adoptExisting: false), ` +
      `${count(added)} new`
    );
  }
  const retagged =
    adoptable.otherProject.length === 0
      ? ""
      : `; ${count(adoptable.otherProject.length)} of them retagged from another project (${listSome(adoptable.otherProject)})`;
  const others = adoptable.otherStack ?? [];
  const owned =
    others.length === 0
      ? ""
      : `; ${count(others.length)} managed by another stack will be refused, nothing written to them ` +
        `(${listSome(others)}; list a device in takeOver to move it to this stack)`;
  return (
    `${head}: ${count(adoptable.onPlatform)} already on the platform will be adopted ` +
    `(${count(adoptable.unchanged)} unchanged, ${count(adoptable.onPlatform - adoptable.unchanged)} updated` +
    `${retagged}), ${count(added)} new${owned}`
  );
}
