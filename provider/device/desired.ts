/**
 * The declared state of one device — a Device resource's inputs, or one entry of a DeviceFleet —
 * and how it compares with the platform's device. Both resources use these, so that a device
 * means the same thing whichever resource declares it.
 */
import { sameSerial } from "../shared/serial-numbers";
import type { AddDeviceInput, Device as PlatformDevice, UpdateDeviceInput } from "../../sdk";
import { definedInputs, InputChecker, SERIAL_NUMBER, type Inputs } from "../shared/input-checks";
import { carriesOnly, userTags, withMarker } from "../shared/owner-marker";

/** The fields that describe a device on the platform. */
export const DEVICE_FIELDS = ["sn", "name", "description", "project", "tags", "tslVersion"] as const;

/** What a program declares about one device. */
export interface DeclaredDevice {
  sn: string;
  name: string;
  description?: string;
  project?: string;
  tags?: string[];
  tslVersion?: string;
}

/**
 * The fields PUT changes in place — `project` too: it is a tag (see project-tag.ts). Only `sn`, the
 * device's identity, cannot change.
 */
export const UPDATABLE_FIELDS = ["name", "description", "project", "tags", "tslVersion"] as const;

/** Adds the checks of one declared device to `checker` (Device inputs, or a fleet entry). */
export function checkDeviceFields(checker: InputChecker): InputChecker {
  return checker
    .string("sn", { required: true, pattern: SERIAL_NUMBER, patternRule: "must be 12 to 16 hex digits" })
    .string("name", { required: true })
    .string("description", { text: "multiline" })
    .string("project")
    .tags("tags")
    .string("tslVersion");
}

/** The declared device from checked inputs (or a state's outputs, which carry the same fields). */
export function declaredDevice(inputs: Inputs): DeclaredDevice {
  return definedInputs(
    Object.fromEntries(DEVICE_FIELDS.map((key) => [key, inputs[key]])),
  ) as unknown as DeclaredDevice;
}

/** A project as the platform compares it: none and empty are the same. */
export function projectOf(value: { project?: string | null }): string {
  return value.project ?? "";
}

/**
 * A field as the platform compares it: no description is an empty one, no tags an empty list.
 * Tags keep their order, which the platform keeps too.
 */
function normalised(key: (typeof DEVICE_FIELDS)[number], value: unknown): unknown {
  if (key === "sn") return typeof value === "string" ? value.toUpperCase() : value;
  if (value === undefined || value === null) return key === "tags" ? [] : "";
  return value;
}

/** The fields (of `keys`) whose values differ between two declarations or states. */
export function changedFields(
  before: Readonly<Partial<Record<(typeof DEVICE_FIELDS)[number], unknown>>>,
  after: Readonly<Partial<Record<(typeof DEVICE_FIELDS)[number], unknown>>>,
  keys: readonly (typeof DEVICE_FIELDS)[number][] = DEVICE_FIELDS,
): string[] {
  return keys.filter(
    (key) => JSON.stringify(normalised(key, before[key])) !== JSON.stringify(normalised(key, after[key])),
  );
}

/**
 * What PUT would change on a platform device to reach `want`: name, description, project, tags.
 * The platform does not report a device's TSL version, so a declared `tslVersion` cannot be
 * compared and is always sent (see {@link needsUpdate}).
 */
export function platformDifferences(device: PlatformDevice, want: DeclaredDevice): string[] {
  return changedFields(platformDeclaration(device), want, ["name", "description", "project", "tags"]);
}

/**
 * Whether adopting `device` for `want` needs a PUT: something differs, a TSL version is declared,
 * or the device does not carry this stack's owner `marker` (and no other) yet.
 */
export function needsUpdate(device: PlatformDevice, want: DeclaredDevice, marker?: string): boolean {
  if (marker !== undefined && !carriesOnly(device.tag, marker)) return true;
  return want.tslVersion !== undefined || platformDifferences(device, want).length > 0;
}

/** The body of Add a Device for a declared device (empty values left out), with the owner marker. */
export function addBody(want: DeclaredDevice, marker?: string): AddDeviceInput {
  const tags = withMarker(want.tags, marker);
  return {
    snDevEUI: want.sn,
    name: want.name,
    ...(want.description ? { description: want.description } : {}),
    ...(want.project ? { project: want.project } : {}),
    ...(tags.length > 0 ? { tag: tags } : {}),
  };
}

/**
 * The body of Update a Device Information: the whole declared state (PUT replaces it), the project
 * included — `""` clears it when none is declared, as an absent field would keep it — and the
 * owner marker, which a PUT without it would remove.
 */
export function updateBody(deviceId: string, want: DeclaredDevice, marker?: string): UpdateDeviceInput {
  return {
    deviceId,
    name: want.name,
    description: want.description ?? "",
    project: want.project ?? "",
    tag: withMarker(want.tags, marker),
    ...(want.tslVersion ? { tslVersion: want.tslVersion } : {}),
  };
}

/**
 * The declaration that would produce the platform's device, for refresh: the platform's values,
 * except the serial number's spelling (kept as declared when it is the same device), the TSL
 * version, which the platform does not report, and owner markers, which no program declares.
 */
export function platformDeclaration(
  device: PlatformDevice,
  previous?: Partial<DeclaredDevice>,
): DeclaredDevice {
  const sn = previous?.sn !== undefined && sameSerial(previous.sn, device.sn) ? previous.sn : device.sn;
  const tags = userTags(device.tag ?? []);
  return definedInputs({
    sn: sn ?? "",
    name: device.name ?? "",
    description: device.description || undefined,
    project: device.project || undefined,
    tags: tags.length > 0 ? tags : undefined,
    tslVersion: previous?.tslVersion,
  }) as unknown as DeclaredDevice;
}

/** `name "a" → "b", tags [x] → [x, y]`: what an update changes, for plans and warnings. */
export function describeChanges(
  before: Partial<DeclaredDevice>,
  after: Partial<DeclaredDevice>,
  fields: readonly string[],
): string {
  const show = (value: unknown) =>
    Array.isArray(value) ? `[${value.join(", ")}]` : value === undefined ? "(none)" : JSON.stringify(value);
  return fields
    .map((field) => {
      const key = field as keyof DeclaredDevice;
      return `${field} ${show(before[key])} → ${show(after[key])}`;
    })
    .join(", ");
}
