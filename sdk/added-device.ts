/**
 * Add a Device is not safe to repeat: when its answer is lost, the device looked up by serial
 * number tells whether the first attempt worked.
 */
import { withNote, type DevicePlatformError } from "./errors";
import type { DeviceDetails, DeviceWriteResult } from "./schemas/device";

/** After an unconfirmed Add: the device found by serial number means the first attempt worked. */
export async function lookUpAddedDevice(
  findDeviceBySn: (sn: string) => Promise<DeviceDetails | undefined>,
  sn: string,
  error: DevicePlatformError,
): Promise<DeviceWriteResult | undefined> {
  let found: DeviceDetails | undefined;
  try {
    found = await findDeviceBySn(sn);
  } catch (lookupError) {
    const why = lookupError instanceof Error ? lookupError.message : String(lookupError);
    throw withNote(error, `the device may have been added; looking it up failed: ${why}`, true);
  }
  if (!found) return undefined;
  const { deviceId, devEUI, imei, project } = found;
  return { deviceId, sn: found.sn ?? sn, project, devEUI, imei };
}
