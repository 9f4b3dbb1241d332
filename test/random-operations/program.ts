/**
 * The one fixed Pulumi program of the harness: it reads `world.json` (written by the harness before
 * each step) and declares exactly that — DeviceFleets, Devices, RpsProfiles and DeviceConfigs, each
 * under the resource name the world gives it, with no aliases: a renamed resource is a new name.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { World } from "./world";

export const WORLD_FILE = "world.json";

/** `index.ts` of every harness stack. */
export const HARNESS_PROGRAM = `import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as devplatform from "pulumi-devplatform";

interface DeviceDecl { sn: string; name: string; project?: string; tags?: string[] }
type Target = { fleet: string } | { device: string };
interface World {
  fleets: { name: string; devices: DeviceDecl[] }[];
  devices: (DeviceDecl & { resource: string })[];
  rps: { resource: string; sn: string; profileUrl: string }[];
  configs: {
    resource: string;
    targets: Target[];
    properties: Record<string, devplatform.ConfigValue>;
    version?: string;
    resetOnDelete: boolean;
  }[];
}
const world: World = JSON.parse(readFileSync(__dirname + "/${WORLD_FILE}", "utf8"));

const fleets = new Map<string, devplatform.DeviceFleet>();
for (const fleet of world.fleets) fleets.set(fleet.name, new devplatform.DeviceFleet(fleet.name, { devices: fleet.devices }));
const devices = new Map<string, devplatform.Device>();
for (const { resource, ...args } of world.devices) devices.set(resource, new devplatform.Device(resource, args));
for (const { resource, ...args } of world.rps) new devplatform.RpsProfile(resource, args);

function idsOf(target: Target): pulumi.Output<string[]> {
  if ("fleet" in target) return fleets.get(target.fleet)!.deviceIds.apply((ids) => Object.values(ids));
  return devices.get(target.device)!.deviceId.apply((id) => [id]);
}
for (const config of world.configs) {
  new devplatform.DeviceConfig(config.resource, {
    deviceIds: pulumi.all(config.targets.map(idsOf)).apply((lists) => lists.flat()),
    properties: config.properties,
    version: config.version,
    resetOnDelete: config.resetOnDelete,
  });
}
`;

/** Writes the world a stack's program reads at its next run. */
export function writeWorld(projectDir: string, world: World): void {
  writeFileSync(path.join(projectDir, WORLD_FILE), JSON.stringify(world, null, 2));
}
