/**
 * A device as the functions answer it (`getDevice`'s result, an element of `getDevices`'): the
 * fields a Device declares, as the platform has them, and what the platform reports — the same
 * names and meanings as a Device's outputs.
 */
import type { Device as PlatformDevice } from "../../sdk";
import { platformDeclaration } from "../device/desired";
import { deviceOutputs } from "../device/outputs";
import { DEVICE_FIELD_SCHEMA, DEVICE_OUTPUT_SCHEMA } from "../device/schema";
import { definedInputs, type Inputs } from "../shared/input-checks";
import type { ObjectTypeSpec, PropertySpec } from "../core/schema-spec";

const { tslVersion: _notReported, ...REPORTED_FIELDS } = DEVICE_FIELD_SCHEMA;

/** The result properties of one device (the platform does not report a TSL version). */
export const DEVICE_INFO_PROPERTIES: Readonly<Record<string, PropertySpec>> = {
  ...REPORTED_FIELDS,
  ...DEVICE_OUTPUT_SCHEMA,
};

/** `devplatform:index:DeviceInfo`. */
export const deviceInfoType: ObjectTypeSpec = {
  type: "object",
  description: "A device of the application, as the platform reports it.",
  properties: DEVICE_INFO_PROPERTIES,
  required: ["deviceId"],
};

/** One platform device as a function's result. */
export function deviceInfoOf(device: PlatformDevice): Inputs {
  const declared: Inputs = { ...platformDeclaration(device) };
  delete declared.tslVersion;
  if (declared.sn === "") delete declared.sn;
  return definedInputs({ ...declared, ...deviceOutputs(device) });
}
