/**
 * The plugin lifecycle's program in Pulumi YAML. A YAML program is its Pulumi.yaml, so each step
 * writes the program with the step's inputs in it, as a YAML user edits the file; `getDevice` is
 * an `fn::invoke`. Values are written as JSON, which is YAML (flow style), so a serial number such
 * as `240000E00001` stays a string instead of becoming a float.
 */
import type { LifecycleResources } from "./plugin-lifecycle";

/** The program's sections, to append to the project's Pulumi.yaml. */
export function yamlLifecycleProgram(res: LifecycleResources): string {
  const sections = {
    resources: {
      device: { type: "devplatform:Device", properties: res.device },
      fleet: { type: "devplatform:DeviceFleet", properties: { devices: res.fleet } },
      rps: { type: "devplatform:RpsProfile", properties: res.rps },
      config: {
        type: "devplatform:DeviceConfig",
        properties: { deviceIds: ["${device.deviceId}"], properties: res.config.properties },
      },
    },
    variables: {
      reported: {
        "fn::invoke": { function: "devplatform:getDevice", arguments: { deviceId: "${device.deviceId}" } },
      },
    },
    outputs: {
      deviceId: "${device.deviceId}",
      fleetDeviceIds: "${fleet.deviceIds}",
      rpsProfileUrl: "${rps.profileUrl}",
      configProperties: "${config.properties}",
      getDeviceName: "${reported.name}",
    },
  };
  return Object.entries(sections)
    .map(([section, value]) => `${section}: ${JSON.stringify(value)}\n`)
    .join("");
}
