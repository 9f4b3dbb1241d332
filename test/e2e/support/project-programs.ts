/**
 * A program with several DeviceFleets, Devices and a DeviceConfig over one fleet, read from
 * `layout.json` beside it — the layout `devplatform export` generates (a fleet per project), so a
 * test moves a serial number between fleets, or to a Device, by rewriting that file.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { FleetDeviceSpec } from "./fleet-programs";

/** What `layout.json` declares. */
export interface LayoutSpec {
  /** Fleets by name. */
  fleets: Record<string, FleetDeviceSpec[]>;
  /** Device resources, each named by its serial number. */
  devices: FleetDeviceSpec[];
  /** A DeviceConfig over every device of this fleet, with these properties (tasks). */
  config?: { fleet: string; properties: Record<string, unknown> };
}

export const LAYOUT_FILE = "layout.json";

/** The program; it reads {@link LAYOUT_FILE} when it runs. */
export const LAYOUT_PROGRAM = `import { readFileSync } from "node:fs";
import * as devplatform from "pulumi-devplatform";

interface Entry { sn: string; name: string; project?: string; tags?: string[]; description?: string }
interface Layout {
  fleets: Record<string, Entry[]>;
  devices: Entry[];
  config?: { fleet: string; properties: Record<string, devplatform.ConfigValue> };
}
const layout: Layout = JSON.parse(readFileSync(__dirname + "/${LAYOUT_FILE}", "utf8"));

const fleets = Object.fromEntries(
  Object.entries(layout.fleets).map(([name, devices]) => [name, new devplatform.DeviceFleet(name, { devices })]),
);
for (const device of layout.devices) new devplatform.Device(device.sn, device);
const configured = layout.config && fleets[layout.config.fleet];
if (layout.config && configured) {
  new devplatform.DeviceConfig("fleet-config", {
    deviceIds: configured.deviceIds,
    properties: layout.config.properties,
  });
}
export const fleetDeviceIds = Object.fromEntries(Object.entries(fleets).map(([name, f]) => [name, f.deviceIds]));
`;

/** Writes the layout the program reads. */
export function writeLayout(projectDir: string, layout: LayoutSpec): void {
  writeFileSync(path.join(projectDir, LAYOUT_FILE), JSON.stringify(layout, null, 2));
}
