/**
 * The stack the reliability e2e tests deploy: Devices named by serial number, one DeviceConfig over
 * all of them (configuration tasks), one single-device DeviceConfig (PATCH) and RpsProfiles — read
 * from `stack.json` beside the program, so a test changes the declaration by rewriting that file.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { DeviceSpec, RpsSpec } from "./fleet-programs";

/** What `stack.json` declares. */
export interface StackSpec {
  devices: DeviceSpec[];
  rps: RpsSpec[];
  /** Properties every device gets through one DeviceConfig (tasks); none when absent. */
  fleetProperties?: Record<string, unknown>;
  /** Properties the first device gets through a DeviceConfig of its own (PATCH); none when absent. */
  firstDeviceProperties?: Record<string, unknown>;
}

export const STACK_FILE = "stack.json";

/** The program; it reads {@link STACK_FILE} when it runs. */
export const RELIABILITY_PROGRAM = `import { readFileSync } from "node:fs";
import * as devplatform from "pulumi-devplatform";

interface Spec {
  devices: { resource?: string; sn: string; name: string; tags?: string[]; project?: string }[];
  rps: { sn: string; profileUrl: string }[];
  fleetProperties?: Record<string, devplatform.ConfigValue>;
  firstDeviceProperties?: Record<string, devplatform.ConfigValue>;
}
const spec: Spec = JSON.parse(readFileSync(__dirname + "/${STACK_FILE}", "utf8"));

const devices = spec.devices.map(({ resource, ...args }) => new devplatform.Device(resource ?? args.sn, args));
for (const record of spec.rps) new devplatform.RpsProfile(record.sn, record);
if (spec.fleetProperties && devices.length > 0) {
  new devplatform.DeviceConfig("all-devices", { deviceIds: devices.map((d) => d.deviceId), properties: spec.fleetProperties });
}
const first = devices[0];
if (spec.firstDeviceProperties && first) {
  new devplatform.DeviceConfig("first-device", { deviceIds: first.deviceId, properties: spec.firstDeviceProperties });
}
export const deviceIds = devices.map((d) => d.deviceId);
`;

/** Writes the declaration a project's program reads. */
export function writeStackSpec(projectDir: string, spec: StackSpec): void {
  writeFileSync(path.join(projectDir, STACK_FILE), JSON.stringify(spec, null, 2));
}
