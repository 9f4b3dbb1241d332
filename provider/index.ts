/**
 * pulumi-devplatform: Pulumi resources for the device-management platform.
 *
 * ```ts
 * import { Device, RpsProfile } from "pulumi-devplatform";
 * ```
 */
export { Device, type DeviceArgs } from "./device";
export { DeviceConfig, type DeviceConfigArgs, type ConfigValue } from "./device-config";
export { RpsProfile, type RpsProfileArgs } from "./rps-profile";
export { providerImplementation } from "./implementations";
export type { ResourceKind } from "./serialized-provider";
