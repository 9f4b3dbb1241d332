/**
 * Pulumi programs the e2e tests deploy, written as a user would write them.
 */
import { randomBytes } from "node:crypto";

export interface DeviceSpec {
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
    const { name, ...args } = d;
    lines.push(
      `deviceIds[${resourceName(name)}] = new devplatform.Device(${resourceName(name)}, ${JSON.stringify({ name, ...args })}).deviceId;`,
    );
  }
  for (const r of rps) {
    lines.push(`new devplatform.RpsProfile(${resourceName(`rps-${r.sn}`)}, ${JSON.stringify(r)});`);
  }
  return lines.join("\n") + "\n";
}

/** `count` devices named `device-N` with fresh serial numbers. */
export function deviceSpecs(count: number, tags: string[] = ["e2e"]): DeviceSpec[] {
  return serialNumbers(count).map((sn, i) => ({ name: `device-${i}`, sn, tags }));
}
