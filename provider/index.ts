/**
 * pulumi-devplatform: Pulumi resources for the device-management platform.
 *
 * ```ts
 * import { Device, RpsProfile } from "pulumi-devplatform";
 * ```
 */
export { Device, type DeviceArgs, type DeviceDeclaration } from "./dynamic/device";
export {
  DeviceFleet,
  type DeviceFleetArgs,
  type DeviceFleetDevice,
  type FleetDeviceInfo,
} from "./dynamic/device-fleet";
export { DeviceConfig, type DeviceConfigArgs, type ConfigValue } from "./dynamic/device-config";
export { RpsProfile, type RpsProfileArgs } from "./dynamic/rps-profile";
export { RpsFleet, type RpsFleetArgs, type RpsFleetRecord } from "./dynamic/rps-fleet";
export { providerImplementation } from "./dynamic/provider-module";
export type { ResourceKind } from "./kinds";
