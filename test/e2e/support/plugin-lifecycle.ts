/**
 * What the plugin lifecycle of every language (`language-lifecycle.ts`) is made of: one Device, a
 * DeviceFleet of two, one RpsProfile, a DeviceConfig of the Device, and `getDevice` of the Device.
 * The programs read their inputs from a spec file (YAML's is written from it), so each step changes
 * only the spec; out-of-band changes go through the emulator's control API and the platform's
 * public API; each step's requests come from the emulator's counters.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { DevicePlatformClient } from "../../../sdk";
import type { EmulatorControl } from "../../../emulator";
import { serialNumbers } from "./fleet-programs";
import { E2E_CREDENTIALS } from "./pulumi-project";
import { writesOf } from "./platform-writes";

/** The inputs of the four resources. */
export interface LifecycleResources {
  device: { sn: string; name: string; tags: string[] };
  fleet: { sn: string; name: string; project: string }[];
  rps: { sn: string; profileUrl: string };
  config: { properties: Record<string, unknown> };
}

/** What a program reads from its spec file: the resources' inputs. */
export interface LifecycleSpec {
  resources: LifecycleResources;
}

/** The file next to a program that holds its {@link LifecycleSpec}. */
export const SPEC_FILE = "spec.json";

/** Points a program that reads {@link SPEC_FILE} at `resources`. */
export function writeSpecFile(projectDir: string, resources: LifecycleResources): void {
  const spec: LifecycleSpec = { resources };
  writeFileSync(path.join(projectDir, SPEC_FILE), JSON.stringify(spec));
}

/** Resource names in the programs, in the order a state delete may remove them (dependents first). */
export const RESOURCE_NAMES = ["config", "device", "fleet", "rps"] as const;

/** Type tokens by resource name. */
export const TOKENS: Record<(typeof RESOURCE_NAMES)[number], string> = {
  device: "devplatform:index:Device",
  fleet: "devplatform:index:DeviceFleet",
  rps: "devplatform:index:RpsProfile",
  config: "devplatform:index:DeviceConfig",
};

/** The first program's inputs and the update's (every resource changes one field). */
export function lifecycleResources(prefix: string): {
  initial: LifecycleResources;
  updated: LifecycleResources;
} {
  const [deviceSn, fleetA, fleetB] = serialNumbers(3) as [string, string, string];
  const rpsSn = serialNumbers(1, "AC")[0] as string;
  const initial: LifecycleResources = {
    device: { sn: deviceSn, name: `${prefix}-device`, tags: ["lifecycle", prefix] },
    // The fleet's own project, so that importing the fleet by a project filter finds exactly it.
    fleet: [
      { sn: fleetA, name: `${prefix}-fleet-a`, project: `${prefix}-fleet` },
      { sn: fleetB, name: `${prefix}-fleet-b`, project: `${prefix}-fleet` },
    ],
    rps: { sn: rpsSn, profileUrl: `https://rps.example.com/profiles/${prefix}-1` },
    config: { properties: { reportInterval: 900 } },
  };
  const updated: LifecycleResources = {
    device: { ...initial.device, name: `${prefix}-device-2` },
    fleet: [
      initial.fleet[0] as LifecycleResources["fleet"][number],
      { sn: fleetB, name: `${prefix}-fleet-b-2`, project: `${prefix}-fleet` },
    ],
    rps: { sn: rpsSn, profileUrl: `https://rps.example.com/profiles/${prefix}-2` },
    config: { properties: { reportInterval: 1200 } },
  };
  return { initial, updated };
}

/** What the platform holds of the lifecycle's objects, in the programs' terms. */
export interface PlatformView {
  deviceName: string | undefined;
  fleetNames: (string | undefined)[];
  rpsProfileUrl: string | undefined;
  reportInterval: unknown;
}

/** Reads the platform (through the emulator's control API) for the resources' serial numbers. */
export async function platformView(control: EmulatorControl, res: LifecycleResources): Promise<PlatformView> {
  const { devices, rpsRecords } = await control.state();
  const bySn = (sn: string) => devices.find((d) => d.sn.toUpperCase() === sn.toUpperCase());
  return {
    deviceName: bySn(res.device.sn)?.name,
    fleetNames: res.fleet.map((d) => bySn(d.sn)?.name),
    rpsProfileUrl: rpsRecords.find((r) => r.sn.toUpperCase() === res.rps.sn.toUpperCase())?.profileUrl,
    reportInterval: bySn(res.device.sn)?.properties["reportInterval"],
  };
}

/** Another writer changes one field of each resource: what a refresh must then find. */
export async function changeOutOfBand(
  control: EmulatorControl,
  emulatorUrl: string,
  res: LifecycleResources,
): Promise<PlatformView> {
  const { devices } = await control.state();
  const idOf = (sn: string) => {
    const found = devices.find((d) => d.sn.toUpperCase() === sn.toUpperCase());
    if (!found) throw new Error(`device ${sn} is not on the platform`);
    return found.deviceId;
  };
  const deviceId = idOf(res.device.sn);
  await control.changeDevice(deviceId, {
    name: `${res.device.name}-oob`,
    properties: { reportInterval: 600 },
  });
  const fleetA = res.fleet[0] as LifecycleResources["fleet"][number];
  await control.changeDevice(idOf(fleetA.sn), { name: `${fleetA.name}-oob` });
  const client = new DevicePlatformClient({ baseUrl: emulatorUrl, ...E2E_CREDENTIALS });
  await client.setRpsProfile({ sn: res.rps.sn, profileUrl: `${res.rps.profileUrl}-oob` });
  return platformView(control, res);
}

/** One step's requests: the total, the writes, and every route's count. */
export interface StepFigures {
  total: number;
  writes: number;
  /** The writes (POST/PUT/PATCH/DELETE but searches and the token) by route. */
  writesByRoute: Record<string, number>;
  byRoute: Record<string, number>;
}

/** The writes of creating, or of updating, the lifecycle's resources: 3 devices, 1 RPS record, 1 PATCH. */
export const LIFECYCLE_WRITES = {
  create: { "POST /devices": 3, "POST /rps/profile": 1, "PATCH /devices/{deviceId}/properties": 1 },
  update: { "PUT /devices": 3, "POST /rps/profile": 1, "PATCH /devices/{deviceId}/properties": 1 },
};

/** Counts each step's platform requests from the emulator's counters and prints them as a table. */
export class StepCounter {
  readonly steps: Record<string, StepFigures> = {};

  constructor(private readonly control: EmulatorControl) {}

  /** Runs `step` with the counters reset first, and records its figures under `label`. */
  async count<T>(label: string, step: () => Promise<T>): Promise<T> {
    await this.control.resetCounters();
    const result = await step();
    const { total, byRoute } = await this.control.counters();
    const writesByRoute = writesOf(byRoute);
    const writes = Object.values(writesByRoute).reduce((sum, n) => sum + n, 0);
    this.steps[label] = { total, writes, writesByRoute, byRoute };
    return result;
  }

  /** The figures of a step that ran. */
  of(label: string): StepFigures {
    const figures = this.steps[label];
    if (!figures) throw new Error(`no figures for step ${label}`);
    return figures;
  }

  /** The table printed at the end of a test file. */
  table(title: string): string {
    const rows = Object.entries(this.steps).map(
      ([label, f]) =>
        `  ${label.padEnd(44)} ${String(f.total).padStart(5)} requests, ${f.writes} writes  ` +
        Object.entries(f.byRoute)
          .map(([route, n]) => `${route}=${n}`)
          .join(" "),
    );
    return [`${title}: platform requests per step`, ...rows].join("\n");
  }
}
