/**
 * One owner for each managed property of a device: which DeviceConfig of this deployment declares
 * or wrote which (deviceId, property), so that `resetOnDelete` never writes TSL defaults over a
 * property that another DeviceConfig now manages.
 *
 * Renaming a DeviceConfig without an alias, splitting one into several or merging several into one
 * makes the engine create the new resources first and delete the old ones at the end of the
 * deployment. The old one's delete would then reset what the new ones just declared. A module-level
 * record is this process's; the deployment's other provider processes (the plugin beside the
 * dynamic host, in a move) publish theirs through `shared-record.ts` (as for devices, see
 * ownership.ts). Facts come from `check` (once `deviceIds` are known,
 * as they are in an `up`) and from create/update (what a resource wrote or adopted).
 *
 * A resource that releases a property (a delete, or an update that stops managing it) never sees
 * its own declaration of that property in the same deployment: it no longer declares it, and a
 * DeviceConfig is only replaced delete-first. So any declaration or claim found is another's.
 */
import { noteDeclaration } from "./ownership";
import { resetPropertyClaims } from "./property-claims";
import { onOthersFact, publish } from "../deployment/shared-record";
import { machineMs } from "../deployment/machine-clock";

/** A DeviceConfig as the record describes it: a dynamic provider is not told resource names. */
export interface ConfigOwner {
  /** The resource id derived from its device ids. */
  readonly id: string;
  readonly deviceIds: readonly string[];
}

const owners = new Map<string, ConfigOwner>();
const remoteOwners = new Map<string, ConfigOwner>();

onOthersFact((fact) => {
  if (fact.t !== "property-declare") return;
  for (const deviceId of fact.deviceIds) {
    for (const key of fact.keys) remoteOwners.set(pairKey(deviceId, key), fact.owner);
  }
});

function pairKey(deviceId: string, key: string): string {
  return `${deviceId}\u0000${key}`;
}

/** Records that `owner` manages `keys` on each of `deviceIds` (from check, create and update). */
export function declareProperties(
  owner: ConfigOwner,
  deviceIds: readonly string[],
  keys: readonly string[],
): void {
  noteDeclaration();
  for (const deviceId of deviceIds) for (const key of keys) owners.set(pairKey(deviceId, key), owner);
  publish({
    t: "property-declare",
    owner: { id: owner.id, deviceIds: [...owner.deviceIds] },
    deviceIds: [...deviceIds],
    keys: [...keys],
    at: machineMs(),
  });
}

/** Who else manages `key` on `deviceId` in this deployment, if anyone (see the file's comment). */
export function propertyOwner(deviceId: string, key: string): ConfigOwner | undefined {
  return owners.get(pairKey(deviceId, key)) ?? remoteOwners.get(pairKey(deviceId, key));
}

/** Describes an owner for messages: `the DeviceConfig with id 42+1-ab12cd (deviceIds 42, 43)`. */
export function describeConfigOwner(owner: ConfigOwner): string {
  const shown = owner.deviceIds.slice(0, 3).join(", ");
  const more = owner.deviceIds.length > 3 ? ` and ${owner.deviceIds.length - 3} more` : "";
  return `the DeviceConfig with id ${owner.id} (deviceIds ${shown}${more})`;
}

/** A reset left undone because another DeviceConfig manages the property. */
export interface SkippedReset {
  readonly owner: ConfigOwner;
  readonly deviceId: string;
  readonly key: string;
}

/** A property of a device. */
export interface PropertyPair {
  readonly deviceId: string;
  readonly key: string;
}

/**
 * Splits the (deviceId, property) pairs a resource is about to reset into those it may reset and
 * those another DeviceConfig manages. Returns the predicate for the planner and the skipped pairs.
 */
export function resetsOfOthers(pairs: readonly PropertyPair[]): {
  mayReset: (deviceId: string, key: string) => boolean;
  skipped: SkippedReset[];
} {
  const skipped: SkippedReset[] = [];
  for (const { deviceId, key } of pairs) {
    const owner = propertyOwner(deviceId, key);
    if (owner) skipped.push({ owner, deviceId, key });
  }
  const taken = new Set(skipped.map((s) => pairKey(s.deviceId, s.key)));
  return { mayReset: (deviceId, key) => !taken.has(pairKey(deviceId, key)), skipped };
}

/** One sentence per other owner: which properties of which devices were left as they are. */
export function skippedResetMessages(subject: string, skipped: readonly SkippedReset[]): string[] {
  const byOwner = new Map<ConfigOwner, SkippedReset[]>();
  for (const s of skipped) byOwner.set(s.owner, [...(byOwner.get(s.owner) ?? []), s]);
  return [...byOwner.entries()].map(([owner, pairs]) => {
    const keys = [...new Set(pairs.map((p) => p.key))].join(", ");
    const devices = [...new Set(pairs.map((p) => p.deviceId))];
    const deviceText =
      devices.length > 5
        ? `${devices.slice(0, 5).join(", ")} and ${devices.length - 5} more`
        : devices.join(", ");
    return (
      `${subject}: resetOnDelete leaves ${keys} of device(s) ${deviceText} as they are: ` +
      `${describeConfigOwner(owner)} in this deployment manages them now (a rename, split or merge)`
    );
  });
}

/** Forgets every record (tests). */
export function resetPropertyOwnership(): void {
  owners.clear();
  remoteOwners.clear();
  resetPropertyClaims();
}
