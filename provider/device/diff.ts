/**
 * The Device's diff, for both front-ends: one comparison (`compareDevice`) of the recorded state
 * with the checked inputs. The dynamic front-end answers whether anything changes and what
 * replaces; the plugin answers per property, with `stables`.
 */
import type { Inputs } from "../shared/input-checks";
import { expectTslVersion } from "../tsl/versions";
import type { KindDiff } from "../core/diff";
import { changeKind, inputChange } from "../core/diff";
import { changedFields, UPDATABLE_FIELDS } from "./desired";

/** Changing these replaces the device: the serial number is the device. (A project is a tag: updated.) */
const REPLACE_ON = ["sn"] as const;

/**
 * What the platform reports that an update of the device keeps: its id and what identifies the
 * hardware. Status fields (connectStatus, electricity, …) change on their own: not stable.
 */
const STABLE_OUTPUTS = [
  "deviceId",
  "sn",
  "devEUI",
  "imei",
  "model",
  "hardwareVersion",
  "firmwareVersion",
  "deviceType",
  "applicationId",
  "applicationName",
] as const;

/** How a Device's declaration changes. */
export interface DeviceComparison {
  /** Fields whose change replaces the device (`sn`). */
  readonly replaces: string[];
  /** Fields a PUT changes in place. */
  readonly updates: string[];
}

/**
 * Compares the recorded state (`olds`) of device `id` with its checked inputs (`news`), as the
 * platform compares values (no description is an empty one, serial numbers without regard to case).
 * A `tslVersion` switched in place is noted, so that a DeviceConfig of the device in the same
 * deployment is validated against the new model.
 */
export function compareDevice(id: string, olds: Inputs, news: Inputs): DeviceComparison {
  const replaces = changedFields(olds, news, REPLACE_ON);
  const updates = changedFields(olds, news, UPDATABLE_FIELDS);
  if (replaces.length === 0 && updates.includes("tslVersion") && typeof news.tslVersion === "string") {
    expectTslVersion(id, news.tslVersion);
  }
  return { replaces, updates };
}

/**
 * The Device's one diff: each changed field, `sn` replacing (delete first), the rest stable. A
 * device recorded without this stack's owner `marker` (managed before markers were written) is
 * updated to gain it: `ownerMarker` changes, no input does.
 */
export function deviceDiff(id: string, olds: Inputs, news: Inputs, marker?: string): KindDiff {
  const { replaces, updates } = compareDevice(id, olds, news);
  const marks = marker !== undefined && olds.ownerMarker !== marker && replaces.length === 0;
  const detailedDiff = Object.fromEntries([
    ...replaces.map((key) => [key, inputChange(changeKind(olds[key], news[key], true))] as const),
    ...updates.map((key) => [key, inputChange(changeKind(olds[key], news[key]))] as const),
    ...(marks
      ? [["ownerMarker", { kind: changeKind(olds.ownerMarker, marker), inputDiff: false }] as const]
      : []),
  ]);
  return {
    changes: replaces.length + updates.length > 0 || marks,
    replaces,
    // A new device gets a new deviceId: nothing it reports is known before it is added.
    stables: replaces.length > 0 ? [] : [...STABLE_OUTPUTS],
    // One serial number can be on the platform once: the old device must go first.
    deleteBeforeReplace: replaces.length > 0,
    detailedDiff,
  };
}
