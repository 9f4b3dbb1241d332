/**
 * pulumi-devplatform: Pulumi resources for the device-management platform.
 *
 * ```ts
 * import { Device, RpsProfile } from "pulumi-devplatform";
 * ```
 */
export { Device, type DeviceArgs, type DeviceDeclaration } from "./device/device";
export {
  DeviceFleet,
  type DeviceFleetArgs,
  type DeviceFleetDevice,
  type FleetDeviceInfo,
} from "./device-fleet/device-fleet";
export { DeviceConfig, type DeviceConfigArgs, type ConfigValue } from "./device-config/device-config";
export { RpsProfile, type RpsProfileArgs } from "./rps-profile/rps-profile";
export { providerImplementation } from "./runtime/implementations";
export type { ResourceKind } from "./runtime/serialized-provider";
