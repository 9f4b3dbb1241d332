/**
 * The TypeScript program on the generated SDK (`@devplatform/pulumi`) for the plugin lifecycle:
 * the same resources and function as the Python program (`test/e2e/python/plugin_lifecycle.py`),
 * their inputs and import ids read from the spec file next to it.
 */
import { SPEC_FILE } from "./plugin-lifecycle";

/** The program's index.ts. */
export const NODE_SDK_PROGRAM = `import * as fs from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as devplatform from "@devplatform/pulumi";

interface Spec {
  resources: {
    device: { sn: string; name: string; tags: string[] };
    fleet: { sn: string; name: string; project: string }[];
    rps: { sn: string; profileUrl: string };
    config: { properties: Record<string, unknown> };
  };
  imports?: Record<string, string>;
}
const spec = JSON.parse(fs.readFileSync(${JSON.stringify(SPEC_FILE)}, "utf8")) as Spec;
const res = spec.resources;
const opts = (name: string): pulumi.CustomResourceOptions => ({ import: spec.imports?.[name] });

const device = new devplatform.Device("device", res.device, opts("device"));
const fleet = new devplatform.DeviceFleet("fleet", { devices: res.fleet }, opts("fleet"));
const rps = new devplatform.RpsProfile("rps", res.rps, opts("rps"));
const config = new devplatform.DeviceConfig(
  "config",
  { deviceIds: [device.deviceId], properties: res.config.properties },
  opts("config"),
);

export const deviceId = device.deviceId;
export const fleetDeviceIds = fleet.deviceIds;
export const rpsProfileUrl = rps.profileUrl;
export const configProperties = config.properties;
export const getDeviceName = devplatform.getDeviceOutput({ deviceId: device.deviceId }).name;
`;
