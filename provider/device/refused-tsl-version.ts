/**
 * A `tslVersion` the platform does not know for a device. The platform lists no model's versions
 * (a model reports only the version a device runs), so no check before the first write can know
 * it: the Update that sets the version after Add a Device is the check. When the platform refuses
 * it as invalid (400), the device this create has just added is deleted again, and the create
 * fails saying why — nothing is left half-made, and the next `up` starts afresh. For an update the
 * refused PUT changes nothing, so only a create needs this.
 */
import { ValidationError, type DevicePlatformClient } from "../../sdk";
import { operationFailed, ResourceOperationError } from "../shared/errors";

/**
 * When `error` is the platform refusing `tslVersion` for the device this create added: deletes the
 * device and returns the failure to throw (or undefined when the delete failed too, and the
 * caller's partial success records the device instead).
 */
export async function undoAddForRefusedVersion(
  client: DevicePlatformClient,
  error: unknown,
  tslVersion: string | undefined,
  deviceId: string,
  operation: string,
): Promise<ResourceOperationError | undefined> {
  if (tslVersion === undefined || !(error instanceof ValidationError)) return undefined;
  try {
    await client.deleteDevice(deviceId);
  } catch {
    return undefined;
  }
  const refused = operationFailed(operation, error);
  return new ResourceOperationError(
    `${refused.message}. The platform refused tslVersion "${tslVersion}" for this device, so the device this ` +
      `create had just added (deviceId ${deviceId}) was deleted again: nothing is left half-made. Declare a ` +
      "tslVersion the device's model has (getThingModel shows the version a device runs), or leave it out",
    { cause: error, code: error.code },
  );
}
