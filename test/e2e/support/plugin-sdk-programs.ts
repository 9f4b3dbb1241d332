/**
 * The TypeScript program on the generated SDK (`@devplatform/pulumi`) for the plugin lifecycle:
 * the same resources, function and outputs as the other languages' programs
 * (`test/e2e/python/lifecycle/__main__.py`, `test/e2e/go/lifecycle/main.go`, `yaml-programs.ts`),
 * their inputs read from the spec file next to it.
 */
import { SPEC_FILE } from "./plugin-lifecycle";

/** The program's index.ts. */
export const NODE_SDK_PROGRAM = `import * as fs from "node:fs";
import * as devplatform from "@devplatform/pulumi";

interface Spec {
  resources: {
    device: { sn: string; name: string; tags: string[] };
    fleet: { sn: string; name: string; project: string }[];
    rps: { sn: string; profileUrl: string };
    config: { properties: Record<string, unknown> };
  };
}
const spec = JSON.parse(fs.readFileSync(${JSON.stringify(SPEC_FILE)}, "utf8")) as Spec;
const res = spec.resources;

const device = new devplatform.Device("device", res.device);
const fleet = new devplatform.DeviceFleet("fleet", { devices: res.fleet });
const rps = new devplatform.RpsProfile("rps", res.rps);
const config = new devplatform.DeviceConfig("config", {
  deviceIds: [device.deviceId],
  properties: res.config.properties,
});

export const deviceId = device.deviceId;
export const fleetDeviceIds = fleet.deviceIds;
export const rpsProfileUrl = rps.profileUrl;
export const configProperties = config.properties;
export const getDeviceName = devplatform.getDeviceOutput({ deviceId: device.deviceId }).name;
`;
