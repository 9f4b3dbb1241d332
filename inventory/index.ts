/**
 * `pulumi-devplatform/inventory`: the data files of a fleet — `inventory.csv` (devices), `rps.csv`
 * (RPS records) and `config.json` (device configuration in groups) — read and written by one
 * implementation, used by `devplatform export` to write them and by Pulumi programs to read them.
 * Knows nothing of Pulumi.
 *
 * @example
 * import { readInventory, groupByProject } from "pulumi-devplatform/inventory";
 * for (const group of groupByProject(readInventory("inventory.csv"))) console.log(group.key, group.entries.length);
 */
export { InventoryError, type InventoryErrorLocation } from "./inventory-error";
export {
  INVENTORY_COLUMNS,
  formatInventory,
  parseInventory,
  parseInventoryRecords,
  readInventory,
  readInventoryRecords,
  type InventoryEntry,
  type InventoryRecord,
  type ReadInventoryOptions,
} from "./inventory-file";
export { SAVE_AS_UTF8, decodeDataFile } from "./file-text";
export { RPS_COLUMNS, formatRps, parseRps, readRps, type RpsEntry } from "./rps-file";
export {
  formatConfigGroups,
  parseConfigGroups,
  readConfigGroups,
  type ConfigGroup,
  type ConfigValue,
  type KnownSerials,
} from "./config-file";
export { UNASSIGNED_KEY, groupByProject, projectKey, slugify, type ProjectGroup } from "./project-groups";
export { MAX_TAGS, SERIAL_NUMBER, TAG_SEPARATOR, serialKey } from "./fields";
