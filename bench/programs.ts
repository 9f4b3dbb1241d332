/**
 * The benchmark's Pulumi programs: N Devices, and the engine floor — the same shape with N no-op
 * dynamic resources, so the difference is what the provider itself costs.
 */

/** The serial number of bench device `i`. */
export function benchSerial(snPrefix: string, i: number): string {
  return snPrefix + i.toString(16).toUpperCase().padStart(10, "0");
}

/** The name of bench device `i`; `renamed` gives one device another name (an `up` renaming one). */
function benchName(i: number, renamed?: number): string {
  return i === renamed ? `bench-${i}-renamed` : `bench-${i}`;
}

/** N Devices with serial numbers `prefix` + index. */
export function devicesProgram(count: number, snPrefix: string, renamed?: number): string {
  return `import { Device } from "pulumi-devplatform";
const count = ${count};
export const ids = Array.from({ length: count }, (_, i) => {
  const sn = "${snPrefix}" + i.toString(16).toUpperCase().padStart(10, "0");
  const name = i === ${renamed ?? -1} ? "bench-" + i + "-renamed" : "bench-" + i;
  return new Device("device-" + i, { sn, name, tags: ["bench"] }).deviceId;
});
`;
}

/** N dynamic resources whose provider does nothing: the engine's own cost per resource. */
export function noopProgram(count: number, renamed?: number): string {
  return `import * as pulumi from "@pulumi/pulumi";
const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) { return { id: "noop-" + inputs.index, outs: inputs }; },
  async diff(id, olds, news) { return { changes: olds.name !== news.name }; },
  async update(id, olds, news) { return { outs: news }; },
  async read(id, props) { return { id, props }; },
};
class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, index: number, label: string) { super(provider, name, { index, name: label }, {}); }
}
export const ids = Array.from({ length: ${count} }, (_, i) =>
  new Noop("noop-" + i, i, i === ${renamed ?? -1} ? "bench-" + i + "-renamed" : "bench-" + i).id);
`;
}

/** The fleet's devices, as the file the fleet program reads. */
export function fleetDevicesFile(count: number, snPrefix: string, renamed?: number): string {
  const devices = Array.from({ length: count }, (_, i) => ({
    sn: benchSerial(snPrefix, i),
    name: benchName(i, renamed),
    tags: ["bench"],
  }));
  return JSON.stringify(devices);
}

/** One DeviceFleet of the devices in `fleet.json`. */
export const FLEET_PROGRAM = `import { readFileSync } from "node:fs";
import { DeviceFleet } from "pulumi-devplatform";
const devices = JSON.parse(readFileSync(__dirname + "/fleet.json", "utf8"));
export const count = new DeviceFleet("bench-fleet", { devices }).deviceIds.apply((ids) => Object.keys(ids).length);
`;

/** The same fleet on the provider plugin (`devplatform:index:DeviceFleet`, no generated SDK needed). */
export const PLUGIN_FLEET_PROGRAM = `import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
class DeviceFleet extends pulumi.CustomResource {
  declare readonly deviceIds: pulumi.Output<Record<string, string>>;
  constructor(name: string, props: pulumi.Inputs) {
    super("devplatform:index:DeviceFleet", name, { ...props, deviceIds: undefined });
  }
}
const devices = JSON.parse(readFileSync(__dirname + "/fleet.json", "utf8"));
export const count = new DeviceFleet("bench-fleet", { devices }).deviceIds.apply((ids) => Object.keys(ids).length);
`;

const ROLLOUT = `{ reportInterval: 900, alarmThreshold: { high: 28, low: 5 } }`;

/** One DeviceConfig for all devices: configuration tasks, 500 devices a call. */
export function oneConfigProgram(deviceIds: string[]): string {
  return `import { DeviceConfig } from "pulumi-devplatform";
new DeviceConfig("rollout", { deviceIds: ${JSON.stringify(deviceIds)}, properties: ${ROLLOUT} });
`;
}

/** One DeviceConfig per device: a PATCH each. */
export function configPerDeviceProgram(deviceIds: string[]): string {
  return `import { DeviceConfig } from "pulumi-devplatform";
const ids: string[] = ${JSON.stringify(deviceIds)};
ids.forEach((id) => new DeviceConfig("rollout-" + id, { deviceIds: id, properties: ${ROLLOUT} }));
`;
}

/**
 * The engine's floor for one resource of the fleet's shape: a dynamic resource whose provider does
 * nothing but carry what a DeviceFleet carries — the devices as one JSON string in, checked into
 * entries keyed by serial number, and outputs of `deviceIds`, `devices` and `applied` — so the
 * engine, the SDK and the dynamic host marshal the same values, and no platform is asked anything.
 */
export const SHAPE_FLOOR_PROGRAM = `import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
type Entries = Record<string, { name: string; tags?: string[] }>;
const entriesOf = (inputs: any): Entries =>
  typeof inputs.devices === "string"
    ? Object.fromEntries(JSON.parse(inputs.devices).map((d: any) => [d.sn, { name: d.name, tags: d.tags }]))
    : inputs.devices;
const outputsOf = (inputs: any) => {
  const entries = entriesOf(inputs);
  const serials = Object.keys(entries);
  return {
    fleetName: inputs.fleetName,
    deviceIds: Object.fromEntries(serials.map((sn, i) => [sn, String(1e12 + i)])),
    devices: Object.fromEntries(serials.map((sn, i) => [sn, { deviceId: String(1e12 + i), model: "M1", deviceType: "COMMON" }])),
    applied: JSON.stringify(entries),
  };
};
const provider: pulumi.dynamic.ResourceProvider = {
  async check(olds, news) { return { inputs: { ...news, devices: entriesOf(news) } }; },
  async diff(id, olds, news) { return { changes: olds.applied !== JSON.stringify(entriesOf(news)) }; },
  async create(inputs) { return { id: inputs.fleetName, outs: outputsOf(inputs) }; },
  async update(id, olds, news) { return { outs: outputsOf(news) }; },
  async read(id, props) { return { id, props }; },
};
class ShapeFloor extends pulumi.dynamic.Resource {
  declare readonly deviceIds: pulumi.Output<Record<string, string>>;
  constructor(name: string, devices: unknown[]) {
    super(provider, name, { deviceIds: undefined, devices: JSON.stringify(devices), fleetName: name }, {});
  }
}
const devices = JSON.parse(readFileSync(__dirname + "/fleet.json", "utf8"));
export const count = new ShapeFloor("bench-fleet", devices).deviceIds.apply((ids) => Object.keys(ids).length);
`;
