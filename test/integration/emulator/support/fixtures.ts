/** Shapes and helpers shared by the emulator's integration tests. */
import { afterAll, beforeAll, beforeEach } from "vitest";
import { startEmulator, type RunningEmulator, type StartOptions } from "../../../../emulator";
import { PlatformApi } from "./platform-api";

/** The Added or updated device result. */
export interface DeviceResult {
  sn: string;
  deviceId: string;
  devEUI?: string;
  imei?: string;
}

/** A Device (Query a Specific Device) or Device_Details (search). */
export interface DeviceJson extends DeviceResult {
  name: string;
  model: string;
  hardwareVersion: string;
  firmwareVersion: string;
  electricity?: number;
  lastUpdateTime: number;
  application: { applicationId: string; applicationName: string };
  project?: string;
  description?: string;
  connectStatus: string;
  licenseStatus: string;
  rpsStatus: string;
  deviceType: string;
  tag: string[];
  mac?: string;
  wlanMac?: string;
}

/** Search_Result. */
export interface Page<T> {
  pageSize: number;
  pageNumber: number;
  total: number;
  content: T[];
}

/** A running emulator and a client; `api` is replaced after every reset (tokens are reset too). */
export interface Harness {
  emulator: RunningEmulator;
  api: PlatformApi;
}

/**
 * Starts one emulator for a test file and resets it before each test, so tests do not see each
 * other's devices, faults or counters.
 */
export function useEmulator(options: StartOptions = {}): Harness {
  const harness = {} as Harness;
  beforeAll(async () => {
    harness.emulator = await startEmulator(options);
  });
  afterAll(async () => {
    await harness.emulator?.stop();
  });
  beforeEach(async () => {
    await harness.emulator.control.reset();
    harness.api = new PlatformApi(harness.emulator.url);
  });
  return harness;
}

let serialCounter = 0;

/** A fresh valid serial number with a prefix (`24` sensor, `66` gateway, `AC` controller, `5B` sub-device). */
export function serial(prefix = "24"): string {
  serialCounter += 1;
  const body = `${process.pid % 10000}`.padStart(4, "0") + `${serialCounter}`.padStart(8, "0");
  return `${prefix}${body}`;
}

/** Adds a device and returns its result. */
export async function addDevice(
  api: PlatformApi,
  sn: string,
  extra: Record<string, unknown> = {},
): Promise<DeviceResult> {
  return api.ok<DeviceResult>("POST", "/devices", { snDevEUI: sn, name: `device-${sn}`, ...extra });
}
