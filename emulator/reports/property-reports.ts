/**
 * Property reports: every change of a device's properties (a finished TSL task, Update Device
 * Properties Incrementally, the control API's out-of-band change, auto-provisioning at add) is a
 * report of the device, recorded here with its time, and served by Query the Historical Data of
 * Properties Reports. This is the one place a report is recorded, so that whatever else must hear
 * of reports (the platform's `DEVICE_DATA` notifications) can be attached here once.
 */
import type { EmulatorStore } from "../state/store";
import type { PropertyMap, PropertyReportRecord } from "../state/types";

/**
 * Records that device `deviceId` reported `values` at `atMs` (emulator-clock milliseconds). Call it
 * after the values were applied to the device, with the values as applied. An empty report (nothing
 * applied) is not recorded.
 */
export function recordPropertyReport(
  store: EmulatorStore,
  deviceId: string,
  values: PropertyMap,
  atMs: number,
): PropertyReportRecord | undefined {
  if (Object.keys(values).length === 0) return undefined;
  return store.addPropertyReport({ deviceId, ts: atMs, properties: structuredClone(values) });
}

/** A device's reports, oldest first (by time, then by recording order). */
export function reportsOf(store: EmulatorStore, deviceId: string): readonly PropertyReportRecord[] {
  return store.propertyReports.get(deviceId) ?? [];
}
