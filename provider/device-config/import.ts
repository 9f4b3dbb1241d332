/**
 * `pulumi import devplatform:index:DeviceConfig NAME 'DEVICEIDS:PROPERTYIDS'`: the current values of
 * the named properties of one or more devices, declared as `properties`.
 *
 * The id is `<deviceId>[,<deviceId>…]:<propertyId>[,<propertyId>…]`, e.g.
 * `1234567:reportInterval,alarmThreshold`: the devices, and the TSL property ids this resource is to
 * manage (a configuration manages only the properties it declares). With several devices, each
 * property must have the same value on all of them.
 */
import { NotFoundError } from "../../sdk";
import { platformClient } from "../platform-access/platform-client";
import { describeFailure, ResourceOperationError } from "../shared/errors";
import type { ImportedResource } from "../core/kind";
import { sameValue } from "../tsl/compare";
import { configId } from "./inputs";
import { methodOf } from "./state";

const DEVICE_ID = /^\d+$/;
const SYNTAX = "`<deviceId>[,<deviceId>…]:<propertyId>[,<propertyId>…]`, e.g. `1234567:reportInterval`";

/** The devices and property ids of an import id. */
export function parseConfigImportId(id: string): { deviceIds: string[]; keys: string[] } {
  const at = id.lastIndexOf(":");
  const split = (text: string) =>
    text
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "");
  const deviceIds = at < 0 ? [] : split(id.slice(0, at));
  const keys = at < 0 ? [] : split(id.slice(at + 1));
  const problem =
    deviceIds.length === 0 || keys.length === 0
      ? "names no device or no property"
      : deviceIds.find((d) => !DEVICE_ID.test(d)) !== undefined
        ? `has a deviceId that is not a string of digits ("${deviceIds.find((d) => !DEVICE_ID.test(d))}")`
        : new Set(deviceIds).size !== deviceIds.length
          ? "names a device twice"
          : undefined;
  if (problem !== undefined) {
    throw new ResourceOperationError(
      `import DeviceConfig ${id} failed: the import id ${problem}; it is ${SYNTAX}`,
    );
  }
  return { deviceIds, keys };
}

/** Each property's value, the same on every device, or a failure naming the property and devices. */
function commonValues(
  operation: string,
  keys: readonly string[],
  reports: ReadonlyMap<string, Readonly<Record<string, unknown>>>,
): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const key of keys) {
    const values = [...reports].map(([deviceId, report]) => ({ deviceId, value: report[key] }));
    const missing = values.filter((entry) => entry.value === undefined).map((entry) => entry.deviceId);
    if (missing.length > 0) {
      throw new ResourceOperationError(
        `${operation} failed: property ${key} is not in the configuration the platform reports for device ` +
          `${missing.join(", ")} (Get Configuration reports the writable properties)`,
      );
    }
    const [first] = values;
    const other = values.find((entry) => !sameValue(first?.value, entry.value, key));
    if (first && other) {
      throw new ResourceOperationError(
        `${operation} failed: property ${key} is ${JSON.stringify(first.value)} on device ${first.deviceId} but ` +
          `${JSON.stringify(other.value)} on device ${other.deviceId}; import them as separate DeviceConfigs`,
      );
    }
    properties[key] = first?.value;
  }
  return properties;
}

/** Reads the named properties of the devices of an import id. */
export async function importDeviceConfig(id: string): Promise<ImportedResource> {
  const { deviceIds, keys } = parseConfigImportId(id);
  const operation = `import DeviceConfig ${id}`;
  return describeFailure(operation, async () => {
    const client = await platformClient();
    const reports = new Map<string, Readonly<Record<string, unknown>>>();
    for (const deviceId of deviceIds) {
      try {
        reports.set(deviceId, (await client.getDeviceConfig(deviceId)).properties);
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        throw new ResourceOperationError(`${operation} failed: no device ${deviceId} in this application`, {
          cause: error,
          code: error.code,
        });
      }
    }
    const properties = commonValues(operation, keys, reports);
    const inputs = { deviceIds, properties };
    const method = methodOf({ deviceIds, properties, resetOnDelete: false });
    return { id: configId(deviceIds), inputs, outputs: { ...inputs, method, taskIds: {} } };
  });
}
