/**
 * PLACEHOLDER (to be replaced by the schema/diff/import work of issue 17 before it merges): the
 * plugin's per-kind extensions and functions. The server (`provider/plugin/server/`) imports
 * exactly these names.
 */
import type { KindExtensionTable, PluginFunction } from "./contract";

const missing = (what: string) => () => Promise.reject(new Error(`${what} is not implemented yet`));

const placeholder = {
  diff: missing("diff"),
  importRead: missing("import"),
  inputsOf: (state: Record<string, unknown>) => state,
};

/** Every kind's plugin extensions. */
export const kindExtensions: KindExtensionTable = {
  Device: placeholder,
  DeviceFleet: placeholder,
  RpsProfile: placeholder,
  DeviceConfig: placeholder,
};

/** The package's functions by name (`getDevice` for `devplatform:index:getDevice`). */
export const pluginFunctions: Readonly<Record<string, PluginFunction>> = {};
