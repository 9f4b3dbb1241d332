/**
 * Refresh of a DeviceConfig: each device's configuration (Getting the Configuration of a Specific
 * Device) compared with the properties this resource manages, and nothing else.
 *
 * For many devices the state holds one value per property, so a property counts as drifted when
 * any device differs, and the refreshed input carries the value of the first device that differs:
 * the next `up` shows that property as a change and writes it to every device again. Reads run at
 * most {@link READ_CONCURRENCY} at a time.
 */
import { NotFoundError } from "../../sdk";
import { forEachLimited } from "../shared/fanout";
import type { DesiredConfig } from "./inputs";
import { platformClient } from "../platform-access/platform-client";
import { inUserShape, sameValue } from "../tsl/compare";

/** Configuration reads in flight at once for one resource (the client caps all requests too). */
const READ_CONCURRENCY = 16;

/** What a refresh found. */
export interface ConfigReading {
  /** Devices still on the platform, in the order of the state. */
  readonly deviceIds: string[];
  /** The managed properties as found: the state's value, or a drifted device's value. */
  readonly properties: Record<string, unknown>;
  /** property id → the devices whose value differs (or is absent). */
  readonly drifted: Map<string, string[]>;
}

/**
 * Compares each device's reported configuration (in `deviceIds` order, so the value a refresh shows
 * does not depend on response timing) with the managed properties. The first device that differs
 * sets the refreshed value; a property it does not report is dropped.
 */
export function compareReports(
  managed: Readonly<Record<string, unknown>>,
  deviceIds: readonly string[],
  reports: ReadonlyMap<string, Readonly<Record<string, unknown>>>,
): Omit<ConfigReading, "deviceIds"> {
  const drifted = new Map<string, string[]>();
  const found = new Map<string, { value: unknown } | undefined>();
  for (const deviceId of deviceIds) {
    const actual = reports.get(deviceId);
    if (!actual) continue;
    for (const [key, desired] of Object.entries(managed)) {
      const reported = Object.hasOwn(actual, key) ? actual[key] : undefined;
      if (reported !== undefined && sameValue(desired, reported, key)) continue;
      drifted.set(key, [...(drifted.get(key) ?? []), deviceId]);
      if (!found.has(key))
        found.set(key, reported === undefined ? undefined : { value: inUserShape(desired, reported, key) });
    }
  }
  const properties: Record<string, unknown> = {};
  for (const [key, desired] of Object.entries(managed)) {
    if (!found.has(key)) properties[key] = desired;
    else if (found.get(key)) properties[key] = found.get(key)?.value;
  }
  return { properties, drifted };
}

/** Reads every device's configuration and compares the managed properties. */
export async function readConfiguration(state: DesiredConfig): Promise<ConfigReading> {
  const client = await platformClient();
  const gone = new Set<string>();
  const reports = new Map<string, Record<string, unknown>>();
  await forEachLimited(state.deviceIds, READ_CONCURRENCY, async (deviceId) => {
    try {
      reports.set(deviceId, (await client.getDeviceConfig(deviceId)).properties);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      gone.add(deviceId);
    }
  });
  const compared = compareReports(state.properties ?? {}, state.deviceIds, reports);
  return { ...compared, deviceIds: state.deviceIds.filter((id) => !gone.has(id)) };
}

/**
 * What each device reports now, for the writes of a create or of devices added to the set (see
 * `CurrentConfig`). Devices the platform does not know are left out: validation reports them.
 */
export async function currentConfigs(
  deviceIds: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  const client = await platformClient();
  const reports = new Map<string, Record<string, unknown>>();
  await forEachLimited(deviceIds, READ_CONCURRENCY, async (deviceId) => {
    try {
      reports.set(deviceId, (await client.getDeviceConfig(deviceId)).properties);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  });
  return reports;
}
