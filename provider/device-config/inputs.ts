/**
 * The inputs of a DeviceConfig: their shape checks for `check` (before any request), their
 * normal form (`deviceIds` always a list), the desired state read from checked inputs, and the
 * resource id derived from the device ids.
 */
import { createHash } from "node:crypto";
import {
  definedInputs,
  InputChecker,
  isUnknown,
  gotInsteadOfString,
  type Inputs,
} from "../shared/input-checks";
import type { CheckFailure } from "../shared/input-checks";
import { isPlainObject } from "../tsl/validate";

/** The inputs a DeviceConfig takes. */
export const CONFIG_INPUTS = ["deviceIds", "properties", "profile", "version", "resetOnDelete"] as const;

const RESOURCE = "DeviceConfig";
const DEVICE_ID = /^\d+$/;

/** The desired configuration, from checked inputs whose values are all known. */
export interface DesiredConfig {
  deviceIds: string[];
  /** TSL property id → value; a STRUCT is an object keyed by child id. */
  properties?: Record<string, unknown>;
  /** PROFILE template key → value. */
  profile?: Record<string, unknown>;
  version?: string;
  resetOnDelete: boolean;
}

/** How a configuration is written: PATCH for one device with properties, tasks otherwise. */
export type ConfigMethod = "patch" | "tasks";

/** The method of a desired configuration. */
export function methodOf(config: DesiredConfig): ConfigMethod {
  return config.deviceIds.length === 1 && config.properties !== undefined ? "patch" : "tasks";
}

type Failure = CheckFailure;

function failure(property: string, reason: string): Failure {
  return { property, reason: `${RESOURCE}.${property} ${reason}` };
}

/** `deviceIds` as a list: one id may be given alone. Unknown (preview) stays unknown. */
export function normaliseDeviceIds(value: unknown): unknown {
  if (typeof value === "string" && !isUnknown(value)) return [value];
  // A DeviceFleet's `deviceIds` (serial number → deviceId) configures the whole fleet.
  if (isPlainObject(value)) return Object.values(value);
  return value;
}

function checkDeviceIds(value: unknown): Failure[] {
  if (value === undefined || value === null)
    return [failure("deviceIds", "is required: one deviceId or a list of them")];
  if (isUnknown(value)) return [];
  if (!Array.isArray(value))
    return [failure("deviceIds", "must be a deviceId (a string of digits) or a list of them")];
  if (value.length === 0) return [failure("deviceIds", "must name at least one device")];
  const failures: Failure[] = [];
  const seen = new Set<string>();
  value.forEach((id, index) => {
    if (isUnknown(id)) return;
    const at = `deviceIds[${index}]`;
    if (typeof id !== "string") {
      failures.push(
        failure(at, `must be a deviceId, a string of digits, ${gotInsteadOfString(id, '- "…"')}`),
      );
    } else if (!DEVICE_ID.test(id)) {
      failures.push(failure(at, `must be a deviceId, a string of digits, got ${JSON.stringify(id)}`));
    } else if (seen.has(id)) {
      failures.push(failure(at, `repeats the deviceId ${id}; name each device once`));
    } else {
      seen.add(id);
    }
  });
  return failures;
}

/** `properties` or `profile`: a non-empty object with non-empty keys and values that are set. */
function checkValueMap(name: "properties" | "profile", value: unknown): Failure[] {
  if (value === undefined || value === null || isUnknown(value)) return [];
  const what = name === "properties" ? "TSL property id" : "PROFILE key";
  if (!isPlainObject(value)) return [failure(name, `must be an object of ${what} → value`)];
  const entries = Object.entries(value);
  if (entries.length === 0) return [failure(name, `must set at least one ${what}`)];
  const failures: Failure[] = [];
  for (const [key, entry] of entries) {
    if (key.trim() === "") failures.push(failure(name, `has an empty ${what}`));
    else if (entry === null)
      failures.push(failure(`${name}.${key}`, `must have a value; to stop managing it, remove it`));
  }
  return failures;
}

function checkMode(inputs: Inputs): Failure[] {
  const hasProperties = inputs.properties !== undefined && inputs.properties !== null;
  const hasProfile = inputs.profile !== undefined && inputs.profile !== null;
  if (hasProperties && hasProfile) {
    return [
      failure(
        "profile",
        "cannot be given together with properties: a configuration is either TSL or PROFILE",
      ),
    ];
  }
  if (!hasProperties && !hasProfile) {
    return [
      failure(
        "properties",
        "is required: give properties (TSL property id → value) or profile (key → value)",
      ),
    ];
  }
  if (hasProfile && inputs.resetOnDelete === true) {
    return [
      failure(
        "resetOnDelete",
        "applies to properties only: a PROFILE template has no TSL defaultValue to restore",
      ),
    ];
  }
  return [];
}

/**
 * Shape checks of every input, one failure per property; nothing here needs the platform.
 * Returns the inputs in normal form along with the failures.
 */
export function checkConfigInputs(news: Inputs): { inputs: Inputs; failures: Failure[] } {
  const inputs = definedInputs({ ...news, deviceIds: normaliseDeviceIds(news.deviceIds) });
  const failures = [
    ...new InputChecker(inputs, RESOURCE)
      .knownProperties(CONFIG_INPUTS)
      .string("version")
      .boolean("resetOnDelete").failures,
    ...checkDeviceIds(inputs.deviceIds),
    ...checkMode(inputs),
    ...checkValueMap("properties", inputs.properties),
    ...checkValueMap("profile", inputs.profile),
  ];
  return { inputs, failures };
}

/** The device ids when every one is known, else undefined (a preview of devices not yet created). */
export function knownDeviceIds(inputs: Inputs): string[] | undefined {
  const ids = inputs.deviceIds;
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== "string" || isUnknown(id))) return undefined;
  return ids as string[];
}

/** The desired state of checked inputs (or of a state's outputs, which carry the same fields). */
export function desiredConfig(inputs: Inputs): DesiredConfig {
  const given = definedInputs(inputs);
  return {
    deviceIds: (normaliseDeviceIds(given.deviceIds) as string[] | undefined) ?? [],
    ...(isPlainObject(given.properties) ? { properties: given.properties } : {}),
    ...(isPlainObject(given.profile) ? { profile: given.profile } : {}),
    ...(typeof given.version === "string" ? { version: given.version } : {}),
    resetOnDelete: given.resetOnDelete === true,
  };
}

/**
 * The resource id: the deviceId itself for one device; for several, the smallest deviceId, how
 * many others, and a digest of the whole set (readable, and distinct for distinct sets).
 */
export function configId(deviceIds: readonly string[]): string {
  if (deviceIds.length === 1) return deviceIds[0] as string;
  const sorted = [...deviceIds].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const digest = createHash("sha256").update(sorted.join(",")).digest("hex").slice(0, 12);
  return `${sorted[0]}+${sorted.length - 1}-${digest}`;
}
