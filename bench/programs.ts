/**
 * The benchmark's Pulumi programs: N Devices, and the engine floor — the same shape with N no-op
 * dynamic resources, so the difference is what the provider itself costs.
 */

/** N Devices with serial numbers `prefix` + index. */
export function devicesProgram(count: number, snPrefix: string): string {
  return `import { Device } from "pulumi-devplatform";
const count = ${count};
export const ids = Array.from({ length: count }, (_, i) => {
  const sn = "${snPrefix}" + i.toString(16).toUpperCase().padStart(10, "0");
  return new Device("device-" + i, { sn, name: "bench-" + i, tags: ["bench"] }).deviceId;
});
`;
}

/** N dynamic resources whose provider does nothing: the engine's own cost per resource. */
export function noopProgram(count: number): string {
  return `import * as pulumi from "@pulumi/pulumi";
const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) { return { id: "noop-" + inputs.index, outs: inputs }; },
  async read(id, props) { return { id, props }; },
};
class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, index: number) { super(provider, name, { index, name: "bench-" + index }, {}); }
}
export const ids = Array.from({ length: ${count} }, (_, i) => new Noop("noop-" + i, i).id);
`;
}

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
