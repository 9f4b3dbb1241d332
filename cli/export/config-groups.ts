/**
 * From each device's configuration as the platform reports it to `config.json`'s groups: only the
 * writable properties of the device's TSL model, STRUCT children by their short ids (as a person
 * writes them), and one group per distinct configuration, so that a fleet of identical devices is
 * one DeviceConfig rather than one per device.
 */
import { slugify, type ConfigGroup, type ConfigValue } from "../../inventory";
import type { JsonValue, PropertyValues, ThingModel } from "../../sdk";

/** A device's writable configuration, ready to group. */
export interface DeviceConfiguration {
  readonly sn: string;
  /** The device's model name, used to name its group. */
  readonly model: string | undefined;
  readonly properties: Readonly<Record<string, ConfigValue>>;
}

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A reported value as a {@link ConfigValue}: STRUCT keys `parent.child` become `child`; `null`
 * (no value) gives undefined, and a list or STRUCT child holding one leaves it out.
 */
function toConfigValue(value: JsonValue, id: string): ConfigValue | undefined {
  if (value === null) return undefined;
  if (Array.isArray(value)) {
    const elements = value.map((element) => toConfigValue(element, id));
    return elements.every((e) => e !== undefined) ? (elements as ConfigValue[]) : undefined;
  }
  if (isObject(value)) {
    const struct: Record<string, ConfigValue> = {};
    for (const [key, child] of Object.entries(value)) {
      const short = key.startsWith(`${id}.`) ? key.slice(id.length + 1) : key;
      const converted = toConfigValue(child, `${id}.${short}`);
      if (converted !== undefined) struct[short] = converted;
    }
    return struct;
  }
  return value;
}

/**
 * The properties of `reported` that the TSL model says are readable and writable (accessMode `RW`,
 * top level): what a DeviceConfig can manage and compare. Write-only (`W`) properties are left out:
 * they are settings a device accepts but is not meant to report — network keys, provisioning
 * tokens — and a data file meant for pull requests is no place for them. A property without an
 * accessMode is left out too: nothing says it can be written.
 */
export function writableConfiguration(
  tsl: ThingModel,
  reported: PropertyValues,
): Record<string, ConfigValue> {
  const readWrite = new Set(
    tsl.properties
      .filter((p) => p.accessMode === "RW" && p.dataSpec?.parentId === undefined)
      .map((p) => p.id),
  );
  const properties: Record<string, ConfigValue> = {};
  for (const [id, value] of Object.entries(reported)) {
    if (!readWrite.has(id)) continue;
    const converted = toConfigValue(value, id);
    if (converted !== undefined) properties[id] = converted;
  }
  return properties;
}

/** The write-only (`W`) properties the device reported, which the export leaves out. */
export function writeOnlyProperties(tsl: ThingModel, reported: PropertyValues): string[] {
  return tsl.properties
    .filter(
      (p) => p.accessMode === "W" && p.dataSpec?.parentId === undefined && Object.hasOwn(reported, p.id),
    )
    .map((p) => p.id);
}

/** JSON with object keys sorted at every level: equal configurations give equal text. */
export function canonicalJson(value: ConfigValue | Readonly<Record<string, ConfigValue>>): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(",")}]`;
  if (typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k] as ConfigValue)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * Groups devices with identical configurations. Largest groups first (ties: the group whose first
 * device comes first); serial numbers in the order given; devices without writable properties in
 * no group. Each group is named `config-<model>-<n>` after its first device's model.
 */
export function groupConfigurations(devices: readonly DeviceConfiguration[]): ConfigGroup[] {
  const byConfig = new Map<string, { first: DeviceConfiguration; serials: string[] }>();
  for (const device of devices) {
    if (Object.keys(device.properties).length === 0) continue;
    const key = canonicalJson(device.properties);
    const group = byConfig.get(key);
    if (group) group.serials.push(device.sn);
    else byConfig.set(key, { first: device, serials: [device.sn] });
  }
  // Map iteration follows insertion order, so a stable sort keeps first-seen order among equals.
  const ordered = [...byConfig.values()].sort((a, b) => b.serials.length - a.serials.length);
  const counters = new Map<string, number>();
  return ordered.map(({ first, serials }) => {
    const model = slugify(first.model ?? "") || "device";
    const n = (counters.get(model) ?? 0) + 1;
    counters.set(model, n);
    return { name: `config-${model}-${n}`, serials, properties: { ...first.properties } };
  });
}
