/** Options and results of some of `DevicePlatformClient`'s operations. */
import type { RpsProfile } from "./schemas/rps";
import type { ThingModel } from "./schemas/tsl";

/** Result of `DevicePlatformClient.setRpsProfile`. */
export interface SetRpsProfileResult extends RpsProfile {
  /** The result text the platform returned, if any. */
  readonly result: string | undefined;
}

/** Options of `DevicePlatformClient.deleteDevice`. */
export interface DeleteDeviceOptions {
  /**
   * The serial number of the device meant: the platform answers with the deleted device's serial
   * number, and a different one fails with `SerialNumberMismatchError` (compared ignoring case).
   */
  readonly sn?: string;
}

/** Options of `DevicePlatformClient.callService`. */
export interface CallServiceOptions {
  /** The device's TSL model, when the caller has it: then the call sends no request to read it. */
  readonly model?: ThingModel;
}
