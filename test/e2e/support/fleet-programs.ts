/**
 * Pulumi programs the e2e tests deploy, written as a user would write them.
 */
import { randomBytes } from "node:crypto";

export interface DeviceSpec {
  /** The Pulumi resource name (defaults to `name`); keeping it fixed makes a rename an update. */
  resource?: string;
  name: string;
  sn: string;
  tags?: string[];
  description?: string;
  project?: string;
  takeOverRps?: boolean;
  adoptExisting?: boolean;
}

export interface RpsSpec {
  sn: string;
  profileUrl: string;
}

/** `count` fresh serial numbers with a model prefix (`24` sensor, `66` gateway, `AC` controller). */
export function serialNumbers(count: number, prefix = "24"): string[] {
  const base = randomBytes(4).toString("hex").toUpperCase();
  return Array.from(
    { length: count },
    (_, i) => `${prefix}${base}${i.toString(16).toUpperCase().padStart(4, "0")}`,
  );
}

function resourceName(name: string): string {
  return JSON.stringify(name);
}

/** A program that declares devices and RPS records, exporting each device's id. */
export function fleetProgram(devices: DeviceSpec[], rps: RpsSpec[] = []): string {
  const lines = [
    `import * as devplatform from "pulumi-devplatform";`,
    `export const deviceIds: Record<string, unknown> = {};`,
  ];
  for (const d of devices) {
    const { resource = d.name, ...args } = d;
    lines.push(
      `deviceIds[${resourceName(resource)}] = new devplatform.Device(${resourceName(resource)}, ${JSON.stringify(args)}).deviceId;`,
    );
  }
  for (const r of rps) {
    lines.push(`new devplatform.RpsProfile(${resourceName(`rps-${r.sn}`)}, ${JSON.stringify(r)});`);
  }
  return lines.join("\n") + "\n";
}

/** `count` devices named `device-N` with fresh serial numbers. */
export function deviceSpecs(count: number, tags: string[] = ["e2e"]): DeviceSpec[] {
  return serialNumbers(count).map((sn, i) => ({ resource: `device-${i}`, name: `device-${i}`, sn, tags }));
}

/** A fleet's device as the program declares it. */
export interface FleetDeviceSpec {
  sn: string;
  name: string;
  tags?: string[];
  description?: string;
  project?: string;
}

/**
 * A program with one DeviceFleet read from `fleet.json` (written beside it, as an inventory would
 * be), optional Device resources named by serial number, and the fleet's ids as a stack output.
 */
export function deviceFleetProgram(
  fleetName: string,
  devices: DeviceSpec[] = [],
  settings: Record<string, unknown> = {},
): string {
  const lines = [
    `import { readFileSync } from "node:fs";`,
    `import * as devplatform from "pulumi-devplatform";`,
    `const devices = JSON.parse(readFileSync(__dirname + "/fleet.json", "utf8"));`,
    `const fleet = new devplatform.DeviceFleet(${JSON.stringify(fleetName)}, { devices, ...${JSON.stringify(settings)} });`,
    `export const fleetDeviceIds = fleet.deviceIds;`,
  ];
  for (const d of devices) {
    const { resource = d.sn, ...args } = d;
    lines.push(`new devplatform.Device(${JSON.stringify(resource)}, ${JSON.stringify(args)});`);
  }
  return lines.join("\n") + "\n";
}
