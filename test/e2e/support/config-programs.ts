/**
 * Pulumi programs with DeviceConfig resources for the e2e tests, written as a user would write
 * them: a device and its configuration in one program, and a fleet configuration whose device ids
 * come from a file next to the program (an inventory, as the config-rollout example reads it).
 */

/** The type token of DeviceConfig resources in state and engine events. */
export const DEVICE_CONFIG = "pulumi-nodejs:dynamic/devplatform:DeviceConfig";

/** The file the fleet program reads its device ids from. */
export const DEVICE_IDS_FILE = "device-ids.json";

/** A DeviceConfig's arguments other than `deviceIds`. */
export interface ConfigSpec {
  properties?: Record<string, unknown>;
  profile?: Record<string, unknown>;
  version?: string;
  resetOnDelete?: boolean;
}

/** A device's serial number and name, for a program that creates it. */
export interface OwnDeviceSpec {
  sn: string;
  name: string;
  tags?: string[];
}

function configArgs(deviceIds: string, config: ConfigSpec): string {
  const args = JSON.stringify(config);
  return `{ deviceIds: ${deviceIds}, ...${args} }`;
}

/**
 * A program that creates one device and, when `config` is given, configures it: the DeviceConfig
 * depends on `device.deviceId`, which is unknown until the device exists.
 */
export function deviceWithConfigProgram(device: OwnDeviceSpec, config?: ConfigSpec): string {
  const lines = [
    `import * as devplatform from "pulumi-devplatform";`,
    `const device = new devplatform.Device("device", ${JSON.stringify(device)});`,
    `export const deviceId = device.deviceId;`,
  ];
  if (config) {
    lines.push(
      `const config = new devplatform.DeviceConfig("device-config", ${configArgs("device.deviceId", config)});`,
      `export const method = config.method;`,
      `export const applied = config.properties;`,
    );
  }
  return lines.join("\n") + "\n";
}

/**
 * A program that configures devices already on the platform, their ids read from
 * {@link DEVICE_IDS_FILE}; exports how many tasks were recorded.
 */
export function fleetConfigProgram(config: ConfigSpec): string {
  return [
    `import * as fs from "node:fs";`,
    `import * as path from "node:path";`,
    `import * as devplatform from "pulumi-devplatform";`,
    `const deviceIds: string[] = JSON.parse(fs.readFileSync(path.join(__dirname, "${DEVICE_IDS_FILE}"), "utf8"));`,
    `const config = new devplatform.DeviceConfig("fleet-config", ${configArgs("deviceIds", config)});`,
    `export const method = config.method;`,
    `export const taskCount = config.taskIds.apply((ids) => Object.keys(ids).length);`,
    "",
  ].join("\n");
}

/** The file content of {@link DEVICE_IDS_FILE}. */
export function deviceIdsFile(deviceIds: readonly string[]): Record<string, string> {
  return { [DEVICE_IDS_FILE]: JSON.stringify(deviceIds) };
}

/** One DeviceConfig of {@link configsProgram}: its resource name, devices and arguments. */
export interface NamedConfig {
  name: string;
  deviceIds: readonly string[];
  config: ConfigSpec;
}

/**
 * A program of DeviceConfigs over devices already on the platform, their ids written into the
 * program: renaming, splitting or merging them is editing this list.
 */
export function configsProgram(configs: readonly NamedConfig[]): string {
  const lines = [`import * as devplatform from "pulumi-devplatform";`];
  for (const { name, deviceIds, config } of configs) {
    lines.push(
      `new devplatform.DeviceConfig(${JSON.stringify(name)}, ${configArgs(JSON.stringify(deviceIds), config)});`,
    );
  }
  return lines.join("\n") + "\n";
}
