/**
 * PLACEHOLDER (to be replaced by the schema/diff/import work of issue 17 before it merges): the
 * plugin's per-kind extensions and functions. The server (`provider/plugin/server/`) imports
 * exactly these names.
 */
import type { KindExtensionTable, KindExtensions, PluginFunction } from "./contract";
import { providerImplementation } from "../runtime/implementations";
import type { ResourceKind } from "../runtime/serialized-provider";

const missing = (what: string) => () => Promise.reject(new Error(`${what} is not implemented yet`));

// Until the real per-property diffs land: the shared implementation's diff, top-level only.
const placeholder = (kind: ResourceKind): KindExtensions => ({
  diff: async (id, olds, news) => {
    const own = await providerImplementation(kind).diff(id, olds, news);
    const replaces = own.replaces ?? [];
    const changes = own.changes === true;
    const changed = Object.keys(news).filter(
      (key) => JSON.stringify(olds[key]) !== JSON.stringify(news[key]),
    );
    const detailedDiff = Object.fromEntries(
      (changes ? changed : []).map((key) => [
        key,
        { kind: replaces.includes(key) ? ("UPDATE_REPLACE" as const) : ("UPDATE" as const), inputDiff: true },
      ]),
    );
    return {
      changes,
      replaces,
      stables: [],
      deleteBeforeReplace: own.deleteBeforeReplace === true,
      detailedDiff,
    };
  },
  importRead: missing("import"),
  inputsOf: (state: Record<string, unknown>) => state,
});

/** Every kind's plugin extensions. */
export const kindExtensions: KindExtensionTable = {
  Device: placeholder("Device"),
  DeviceFleet: placeholder("DeviceFleet"),
  RpsProfile: placeholder("RpsProfile"),
  DeviceConfig: placeholder("DeviceConfig"),
};

/** The package's functions by name (`getDevice` for `devplatform:index:getDevice`). */
export const pluginFunctions: Readonly<Record<string, PluginFunction>> = {};
