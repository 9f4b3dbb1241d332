/**
 * `config.json`: device configuration in groups, each a list of serial numbers and the property
 * values they share. Serial numbers rather than deviceIds, so that the file keeps its meaning when
 * devices are re-added and stays readable in a pull request.
 *
 * ```json
 * { "groups": [{ "name": "config-envsense-s24-1", "serials": ["240000A10001"],
 *                "properties": { "reportInterval": 900, "alarmThreshold": { "high": 28, "low": 5 } } }] }
 * ```
 */
import { readDataFile } from "./file-text";
import { z } from "zod";
import { parseLosslessJson } from "../sdk/lossless-json";
import { serialKey, SERIAL_NUMBER } from "./fields";
import { InventoryError } from "./inventory-error";

/** A property value: a scalar, a list, or a STRUCT as an object keyed by child id. */
export type ConfigValue = string | number | boolean | ConfigValue[] | { [key: string]: ConfigValue };

/** Devices that share one configuration. */
export interface ConfigGroup {
  /** Unique within the file; a program can use it as a resource name. */
  name: string;
  /** Serial numbers of the devices, each in at most one group of the file. */
  serials: string[];
  /** TSL property id → value; a LONG beyond 2^53 is a string of digits. */
  properties: Record<string, ConfigValue>;
}

const configValueSchema: z.ZodType<ConfigValue> = z.lazy(() =>
  z.union(
    [
      z.string(),
      z.number(),
      z.boolean(),
      z.array(configValueSchema),
      z.record(z.string(), configValueSchema),
    ],
    { error: "expected a string, number, boolean, list or object (null is not a value)" },
  ),
);

const configFileSchema = z.object({
  groups: z.array(
    z.object({
      name: z.string().trim().min(1, { error: "a group needs a name" }),
      serials: z
        .array(z.string().regex(SERIAL_NUMBER, { error: "a serial number is 12 to 16 hex digits" }))
        .min(1, { error: "a group needs at least one serial number" }),
      properties: z
        .record(z.string(), configValueSchema)
        .refine((p) => Object.keys(p).length > 0, { error: "a group needs at least one property" }),
    }),
  ),
});

/** Serial numbers as the inventory spells them, for checking and re-spelling a group's serials. */
export interface KnownSerials {
  readonly sn: string;
}

/**
 * Parses `config.json`. Group names are unique and a serial number is in one group at most. With
 * `inventory`, every serial number must be in it, and is returned spelled as the inventory spells it
 * (serial numbers compare without regard to case), so that it can be looked up by the inventory's sn.
 */
export function parseConfigGroups(
  text: string,
  file = "config.json",
  inventory?: readonly KnownSerials[],
): ConfigGroup[] {
  let json: unknown;
  try {
    json = parseLosslessJson(text);
  } catch (error) {
    // Only a syntax error is the file's fault; anything else (an old Node.js) is reported as it is.
    if (!(error instanceof SyntaxError)) throw error;
    throw new InventoryError({ file }, `not valid JSON: ${error.message}`);
  }
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const column = issue?.path.map(String).join(".") || undefined;
    throw new InventoryError({ file, column }, issue?.message ?? "not a configuration file");
  }
  const spelling = inventory && new Map(inventory.map((entry) => [serialKey(entry.sn), entry.sn]));
  const names = new Set<string>();
  const groupOf = new Map<string, string>();
  return parsed.data.groups.map((group, index) => {
    const at = (column: string) => ({ file, column: `groups.${index}.${column}` });
    if (names.has(group.name))
      throw new InventoryError(at("name"), `group name "${group.name}" is used twice`);
    names.add(group.name);
    const serials = group.serials.map((sn, i) => {
      const key = serialKey(sn);
      const other = groupOf.get(key);
      if (other !== undefined) {
        throw new InventoryError(at(`serials.${i}`), `${sn} is also in group "${other}"`);
      }
      groupOf.set(key, group.name);
      if (!spelling) return sn;
      const known = spelling.get(key);
      if (known === undefined) throw new InventoryError(at(`serials.${i}`), `${sn} is not in the inventory`);
      return known;
    });
    return { name: group.name, serials, properties: group.properties };
  });
}

/** Reads `config.json`; see {@link parseConfigGroups}. */
export function readConfigGroups(file: string, inventory?: readonly KnownSerials[]): ConfigGroup[] {
  return parseConfigGroups(readDataFile(file), file, inventory);
}

/** `config.json` text of groups, two-space indented, `\n`-terminated. */
export function formatConfigGroups(groups: readonly ConfigGroup[]): string {
  return `${JSON.stringify({ groups }, null, 2)}\n`;
}
