/**
 * What the pack knows of this package's resources, for both front-ends: their type tokens
 * (`devplatform:index:<Kind>` for the provider plugin, `pulumi-nodejs:dynamic/devplatform:<Kind>`
 * for the dynamic resources) and where each keeps what it declares.
 *
 * A policy sees a resource's checked inputs (resource policies, remediations) or its outputs (stack
 * policies). A DeviceFleet's devices are keyed by serial number in both: the plugin records them as
 * `devices` (and answers `devices`/`deviceIds` keyed by serial number, at preview too); the dynamic
 * resource checks its `devices` (one JSON string on the wire) into `entries`, and answers `devices`
 * keyed by serial number after an `up`. A program's list (`devices: [{ sn, … }]`) is read too.
 *
 * The pack stands alone: it imports nothing of the provider, so it starts fast in its own Node.js
 * process whatever the program's language.
 */

import { batchRecords } from "./rps-batch";

/** The package's resource kinds. */
export type Kind = "Device" | "DeviceFleet" | "RpsProfile" | "DeviceConfig" | "RpsFleet";

export const KINDS: readonly Kind[] = ["Device", "DeviceFleet", "RpsProfile", "DeviceConfig", "RpsFleet"];

/** The provider plugin's token of a kind. */
export const pluginToken = (kind: Kind): string => `devplatform:index:${kind}`;
/** The dynamic resource's token of a kind. */
export const dynamicToken = (kind: Kind): string => `pulumi-nodejs:dynamic/devplatform:${kind}`;

/** The kind of a resource type token of either front-end; undefined for anything else. */
export function kindOfType(type: string): Kind | undefined {
  return KINDS.find((kind) => type === pluginToken(kind) || type === dynamicToken(kind));
}

/** The dynamic provider host's key for a dynamic resource's serialized provider. */
const SERIALIZED_PROVIDER = "__provider";
/** The provider module a serialized provider requires, installed: `pulumi-devplatform/providers/<file>`. */
const PROVIDER_MODULE =
  /pulumi-devplatform\/providers\/(device-fleet|device-config|rps-profile|device)(?![\w-])/;
/** The kind a serialized provider built from a source checkout captures (`closureProvider`). */
const CLOSURE_KIND =
  /providerImplementation[\s\S]*\bkind\b["']?\s*:\s*["'](Device|DeviceFleet|RpsProfile|DeviceConfig)["']/;
const KIND_OF_FILE: Record<string, Kind> = {
  device: "Device",
  "device-fleet": "DeviceFleet",
  "rps-profile": "RpsProfile",
  "device-config": "DeviceConfig",
};

/**
 * The kind of a dynamic resource whose serialized provider is one of this package's, whatever type
 * name its class gives it (`class Mine extends pulumi.dynamic.Resource` constructed with
 * `pulumi-devplatform/providers/rps-profile`): the engine would send it to this package's code.
 */
function kindOfSerializedProvider(type: string, props: Props): Kind | undefined {
  if (!type.startsWith("pulumi-nodejs:dynamic")) return undefined;
  let serialized: unknown;
  try {
    serialized = props[SERIALIZED_PROVIDER];
  } catch {
    return undefined; // unknown at preview: the engine knows the provider only once it is built
  }
  if (typeof serialized !== "string") return undefined;
  const file = PROVIDER_MODULE.exec(serialized)?.[1];
  if (file !== undefined) return KIND_OF_FILE[file];
  return CLOSURE_KIND.exec(serialized)?.[1] as Kind | undefined;
}

/** The kind of a resource of either front-end, by its type token or its serialized provider. */
export function kindOfResource(resource: { readonly type: string; readonly props: Props }): Kind | undefined {
  return kindOfType(resource.type) ?? kindOfSerializedProvider(resource.type, resource.props);
}

/** Properties as a policy sees them. */
export type Props = Record<string, unknown>;

/** One declared device: a Device's inputs, or one entry of a fleet (its serial number is its key). */
export interface Entry {
  readonly sn?: unknown;
  readonly name?: unknown;
  readonly project?: unknown;
  readonly tags?: unknown;
  readonly [key: string]: unknown;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A program's list of entries, keyed by serial number (entries without one are left out). */
function bySerial(list: readonly unknown[]): Record<string, Entry> {
  const entries: Record<string, Entry> = {};
  // By index: the engine's proxies fail array methods that create arrays (policy/inputs.ts).
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (isRecord(item) && typeof item.sn === "string") entries[item.sn] = item;
  }
  return entries;
}

/**
 * Where a fleet's entries are, in the props of either front-end, and the entries keyed by serial
 * number. Each entry is as the engine gave it: read it with `plainOf` before calling methods on
 * its values.
 */
export function fleetEntries(
  props: Props,
): { key: "entries" | "devices"; entries: Record<string, Entry> } | undefined {
  for (const key of ["entries", "devices"] as const) {
    if (!(key in props)) continue;
    let value = props[key];
    if (typeof value === "string") {
      try {
        value = JSON.parse(value) as unknown;
      } catch {
        continue;
      }
    }
    if (Array.isArray(value)) return { key, entries: bySerial(value) };
    if (isRecord(value)) {
      const entries: Record<string, Entry> = {};
      for (const sn of Object.keys(value)) entries[sn] = value[sn] as Entry;
      return { key, entries };
    }
  }
  return undefined;
}

/** The serial numbers a resource declares: a Device's or an RpsProfile's `sn`, a fleet's entries' keys. */
export function declaredSerials(kind: Kind, props: Props): string[] {
  if (kind === "Device" || kind === "RpsProfile") return typeof props.sn === "string" ? [props.sn] : [];
  if (kind === "DeviceFleet") return Object.keys(fleetEntries(props)?.entries ?? {});
  // An RPS batch's serial numbers (rps-batch.ts).
  if (kind === "RpsFleet") return Object.keys(batchRecords(props));
  return [];
}

/** The resource's name for messages: the URN's last part. */
export function nameOfUrn(urn: string): string {
  return urn.split("::").slice(3).join("::") || urn;
}
