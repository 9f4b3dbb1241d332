/**
 * The diff of a DeviceConfig, per property, for both front-ends from one comparison
 * (`configChanges`): the dynamic front-end answers whether anything changes and whether the resource
 * is replaced (the engine shows a dynamic resource's detail from old and new inputs); the plugin
 * answers each path, `properties.reportInterval`, `profile["a.b"]`, `version`.
 *
 * A state with `pending` work (a write that failed) differs from any declaration, so that the next
 * `preview` shows it and the next `up` sends it.
 *
 * Everything updates in place — values, `version`, `resetOnDelete`, and `deviceIds` (the new set
 * is configured; with `resetOnDelete` the devices left out get their defaults back) — except a
 * switch between `properties` and `profile`, which replaces the resource. The old configuration
 * is deleted first, so that its `resetOnDelete` cannot overwrite the new one.
 */
import { isUnknown, type Inputs } from "../shared/input-checks";
import type { KindDiff, PropertyChange } from "../core/diff";
import { changeKind, propertyPath } from "../core/diff";
import { hasPending } from "./pending";
import { changedProperties } from "./plan";
import { isPlainObject } from "../tsl/validate";

function containsUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (isPlainObject(value)) return Object.values(value).some(containsUnknown);
  return false;
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
}

function sameDeviceSet(olds: unknown, news: unknown): boolean {
  const before = new Set(asList(olds));
  const after = new Set(asList(news));
  return before.size === after.size && [...after].every((id) => before.has(id));
}

function mode(inputs: Inputs): "properties" | "profile" | undefined {
  if (inputs.properties !== undefined && inputs.properties !== null) return "properties";
  if (inputs.profile !== undefined && inputs.profile !== null) return "profile";
  return undefined;
}

/** A change at one path: its top-level input, and how it changes. */
export interface ConfigChange {
  readonly top: string;
  readonly kind: Exclude<PropertyChange, `${string}_REPLACE`>;
}

/**
 * Each key of a value map that changed: added, removed, or another value (`same` says when two values
 * are the same). A map not known yet, or not a map on one side, is one change of the whole.
 */
function mapChanges(
  top: "properties" | "profile",
  before: unknown,
  after: unknown,
  changedKeys: (had: Record<string, unknown>, want: Record<string, unknown>) => string[],
): Map<string, ConfigChange> {
  const changes = new Map<string, ConfigChange>();
  if (containsUnknown(after) || !isPlainObject(before) || !isPlainObject(after)) {
    const same = JSON.stringify(before) === JSON.stringify(after) && !containsUnknown(after);
    if (!same) changes.set(top, { top, kind: changeKind(before, after) as ConfigChange["kind"] });
    return changes;
  }
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(after, key)) changes.set(propertyPath(top, key), { top, kind: "DELETE" });
  }
  for (const key of changedKeys(before, after)) {
    const kind = Object.hasOwn(before, key) ? "UPDATE" : "ADD";
    changes.set(propertyPath(top, key), { top, kind });
  }
  return changes;
}

/** Every path that differs between the old state (outputs) and the new checked inputs. */
export function configChanges(olds: Inputs, news: Inputs): Map<string, ConfigChange> {
  const changes = new Map<string, ConfigChange>();
  if (containsUnknown(news.deviceIds) || !sameDeviceSet(olds.deviceIds, news.deviceIds))
    changes.set("deviceIds", { top: "deviceIds", kind: "UPDATE" });
  for (const [path, change] of mapChanges("properties", olds.properties, news.properties, changedProperties))
    changes.set(path, change);
  const differentValue = (had: Record<string, unknown>, want: Record<string, unknown>) =>
    Object.keys(want).filter((key) => JSON.stringify(had[key]) !== JSON.stringify(want[key]));
  for (const [path, change] of mapChanges("profile", olds.profile, news.profile, differentValue))
    changes.set(path, change);
  if (olds.version !== news.version)
    changes.set("version", { top: "version", kind: changeKind(olds.version, news.version) as "UPDATE" });
  if ((olds.resetOnDelete === true) !== (news.resetOnDelete === true))
    changes.set("resetOnDelete", { top: "resetOnDelete", kind: "UPDATE" });
  // Work a failed write left owed (see pending.ts) is a change until the platform confirms it.
  if (hasPending(olds)) changes.set("pending", { top: "pending", kind: "UPDATE" });
  return changes;
}

/** Which inputs differ between the old state (outputs) and the new checked inputs. */
export function changedInputs(olds: Inputs, news: Inputs): string[] {
  return [...new Set([...configChanges(olds, news).values()].map((change) => change.top))];
}

/** The input a switch between `properties` and `profile` replaces the resource by, if any. */
export function replacedBy(olds: Inputs, news: Inputs): string[] {
  const before = mode(olds);
  const after = mode(news);
  return before !== undefined && after !== undefined && before !== after ? [after] : [];
}

/** The decisions of a DeviceConfig's diff: whether anything changes, and what replaces it (deleted first). */
export function diffConfig(
  olds: Inputs,
  news: Inputs,
): Pick<KindDiff, "changes" | "replaces" | "deleteBeforeReplace"> {
  const changed = changedInputs(olds, news);
  const replaces = replacedBy(olds, news);
  return { changes: changed.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 };
}
