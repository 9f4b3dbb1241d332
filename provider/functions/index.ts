/** The package's functions by name (`getDevice` for `devplatform:index:getDevice`). */
import { getDevice } from "./get-device";
import { getDevices } from "./get-devices";
import { getRpsProfiles } from "./get-rps-profiles";
import { getThingModel } from "./get-thing-model";
import type { PackageFunction } from "./package-function";

export const packageFunctions: Readonly<Record<string, PackageFunction>> = {
  getDevice,
  getDevices,
  getThingModel,
  getRpsProfiles,
};
