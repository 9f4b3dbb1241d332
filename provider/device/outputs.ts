/**
 * What the platform reports about a device, as the outputs of a Device resource.
 */
import type { Device as PlatformDevice } from "../../sdk";
import { definedInputs, type Inputs } from "../shared/input-checks";

/**
 * The outputs the platform reports for a device, besides the inputs and `deviceId` (which is the
 * resource's id).
 */
export const DEVICE_OUTPUTS = [
  "devEUI",
  "imei",
  "model",
  "hardwareVersion",
  "firmwareVersion",
  "deviceType",
  "connectStatus",
  "licenseStatus",
  "autopStatus",
  "rpsStatus",
  "applicationId",
  "applicationName",
  "electricity",
  "lastUpdateTime",
] as const;

/**
 * Search results spell RPS status `ENABLED`/`DISABLED`, Query a Specific Device `ACTIVATE`/`UNACTIVATED`.
 * Outputs use the single-device spelling whichever operation reported it, so that a device adopted
 * from a search does not show a change at its first refresh.
 */
const RPS_STATUS: Record<string, string> = { ENABLED: "ACTIVATE", DISABLED: "UNACTIVATED" };

/** The platform's view of a device as outputs (status fields included; they never drive a diff). */
export function deviceOutputs(device: PlatformDevice): Inputs {
  return definedInputs({
    deviceId: device.deviceId,
    devEUI: device.devEUI,
    imei: device.imei,
    model: device.model,
    hardwareVersion: device.hardwareVersion,
    firmwareVersion: device.firmwareVersion,
    deviceType: device.deviceType,
    connectStatus: device.connectStatus,
    licenseStatus: device.licenseStatus,
    autopStatus: device.autopStatus,
    rpsStatus:
      device.rpsStatus === undefined
        ? undefined
        : Object.hasOwn(RPS_STATUS, device.rpsStatus)
          ? RPS_STATUS[device.rpsStatus]
          : device.rpsStatus,
    applicationId: device.application?.applicationId,
    applicationName: device.application?.applicationName,
    electricity: device.electricity,
    lastUpdateTime: device.lastUpdateTime,
  });
}
