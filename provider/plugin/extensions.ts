/**
 * The plugin's per-kind extensions and functions, which the server (`provider/plugin/server/`)
 * imports by these names. Each kind's code lives in its own folder (`plugin-diff.ts`, `import.ts`),
 * from the same comparisons as the dynamic front-end's diffs; the functions in `provider/functions/`.
 */
import { deviceConfigPluginDiff } from "../device-config/plugin-diff";
import { importDeviceConfig } from "../device-config/import";
import { inputsOf as deviceConfigInputsOf } from "../device-config/state";
import { deviceFleetInputsOf, importDeviceFleet } from "../device-fleet/import";
import { deviceFleetPluginDiff } from "../device-fleet/plugin-diff";
import { deviceInputsOf, importDevice } from "../device/import";
import { devicePluginDiff } from "../device/plugin-diff";
import { packageFunctions } from "../functions";
import { importRpsProfile, rpsProfileInputsOf } from "../rps-profile/import";
import { rpsProfilePluginDiff } from "../rps-profile/plugin-diff";
import type { KindExtensionTable, PluginFunction } from "./contract";

function fleetNameOf(inputs: Record<string, unknown>, id: string): string {
  return typeof inputs.fleetName === "string" && inputs.fleetName !== "" ? inputs.fleetName : id;
}

/** Every kind's plugin extensions. */
export const kindExtensions: KindExtensionTable = {
  Device: {
    diff: async (id, olds, news) => devicePluginDiff(id, olds, news),
    importRead: (id) => importDevice(id),
    inputsOf: deviceInputsOf,
  },
  DeviceFleet: {
    diff: (id, olds, news) => deviceFleetPluginDiff(fleetNameOf(news, id), olds, news),
    importRead: (id, name) => importDeviceFleet(id, name),
    inputsOf: deviceFleetInputsOf,
  },
  RpsProfile: {
    diff: async (_id, olds, news) => rpsProfilePluginDiff(olds, news),
    importRead: (id) => importRpsProfile(id),
    inputsOf: rpsProfileInputsOf,
  },
  DeviceConfig: {
    diff: (id, olds, news) => deviceConfigPluginDiff(id, olds, news),
    importRead: (id) => importDeviceConfig(id),
    inputsOf: deviceConfigInputsOf,
  },
};

/** The package's functions by name (`getDevice` for `devplatform:index:getDevice`). */
export const pluginFunctions: Readonly<Record<string, PluginFunction>> = packageFunctions;
