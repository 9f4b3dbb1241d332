/**
 * `inventory.csv`: one device a line, `sn,name,project,description,tags`, tags separated by `;`.
 * This is the file people edit in pull requests, so reading it is strict and every error names the
 * file, the line and the column: an unknown or misspelled column (`Tags`, `nmae`) is an error, never
 * a column quietly ignored (which would read as "no tags" for every device).
 *
 * What {@link readInventory} returns is exactly the device declarations a DeviceFleet takes
 * (`devices: readInventory("inventory.csv")`): the same fields, and values the fleet accepts.
 * A program that keeps columns of its own names them with {@link readInventoryRecords}.
 */
import { formatCsv, parseCsvTable, type CsvRow } from "./csv-table";
import { readDataFile } from "./file-text";
import { joinTags, serialKey, serialProblem, splitTags, tagsProblem, textProblem } from "./fields";
import { InventoryError } from "./inventory-error";

/** The inventory's columns, in the order they are written. */
export const INVENTORY_COLUMNS = ["sn", "name", "project", "description", "tags"] as const;

/**
 * One device of an inventory, in the shape of a DeviceFleet device (and of a Device's inputs).
 * Empty cells are absent properties.
 */
export interface InventoryEntry {
  /** Serial number (12–16 hex digits). */
  sn: string;
  /** The device's name on the platform. */
  name: string;
  /** The platform project the device belongs to. */
  project?: string;
  description?: string;
  /** At most 20, no repeats. */
  tags?: string[];
}

/** One line of an inventory read with columns of the program's own. */
export interface InventoryRecord<Column extends string> {
  /** The device, exactly as {@link readInventory} returns it. */
  readonly device: InventoryEntry;
  /** The cells of the program's own columns (empty string for an empty cell). */
  readonly columns: Readonly<Record<Column, string>>;
  /** The 1-based line the record starts on. */
  readonly line: number;
}

/** How a program reads an inventory, besides the file. */
export interface ReadInventoryOptions {
  /**
   * Accept a file with a header and no devices (the fleet then removes every device it manages).
   * Off by default: an emptied or truncated file is far more often an accident than a decision.
   */
  readonly allowEmpty?: boolean;
  /**
   * Where warnings go (a last line without its line end, which may be cut off inside its last
   * cell); by default to standard error, which Pulumi shows under the program's diagnostics.
   */
  readonly onWarning?: (message: string) => void;
}

const REQUIRED = ["sn", "name"] as const;
const OPTIONAL = ["project", "description", "tags"] as const;

function entryOf(row: CsvRow, file: string): InventoryEntry {
  const at = (column: string) => ({ file, line: row.line, column });
  const cell = (column: string) => row.cells[column] ?? "";
  const sn = cell("sn");
  if (sn === "") throw new InventoryError(at("sn"), "the serial number is empty");
  const snProblem = serialProblem(sn);
  if (snProblem) throw new InventoryError(at("sn"), snProblem);
  const name = cell("name");
  if (name === "") throw new InventoryError(at("name"), `device ${sn} has no name`);
  const entry: InventoryEntry = { sn, name };
  for (const column of ["name", "project", "description"] as const) {
    const problem = textProblem(cell(column), column === "description");
    if (problem) throw new InventoryError(at(column), problem);
  }
  if (cell("project") !== "") entry.project = cell("project");
  if (cell("description") !== "") entry.description = cell("description");
  const tags = splitTags(cell("tags"));
  const problem = tagsProblem(tags);
  if (problem) throw new InventoryError(at("tags"), problem);
  if (tags.length > 0) entry.tags = tags;
  return entry;
}

/**
 * Parses inventory text with the program's own `columns` besides the inventory's; see
 * {@link parseInventory} for the rules. A column of the header that is neither is an error.
 */
export function parseInventoryRecords<const Column extends string>(
  text: string,
  file: string,
  columns: readonly Column[],
  options: ReadInventoryOptions = {},
): InventoryRecord<Column>[] {
  const own = columns.filter((column) => !(INVENTORY_COLUMNS as readonly string[]).includes(column));
  const table = parseCsvTable(text, file, REQUIRED, [...OPTIONAL, ...own]);
  if (table.rows.length === 0 && options.allowEmpty !== true) {
    throw new InventoryError(
      { file },
      "the file has a header and no devices; a fleet read from it would remove every device it manages. If the " +
        "file is meant to be empty, pass { allowEmpty: true } to readInventory; otherwise restore its rows",
    );
  }
  if (table.lastLineUnended !== undefined) {
    const warn = options.onWarning ?? ((message: string) => process.stderr.write(`warning: ${message}\n`));
    warn(
      `${file}:${table.lastLineUnended}: the file's last line has no line end; if the file was cut off, that ` +
        "line's last cell may be incomplete. End the file with a line break to silence this warning",
    );
  }
  const firstLine = new Map<string, number>();
  return table.rows.map((row) => {
    const device = entryOf(row, file);
    const key = serialKey(device.sn);
    const earlier = firstLine.get(key);
    if (earlier !== undefined) {
      throw new InventoryError(
        { file, line: row.line, column: "sn" },
        `serial number ${device.sn} is already on line ${earlier}`,
      );
    }
    firstLine.set(key, row.line);
    const cells = Object.fromEntries(columns.map((column) => [column, row.cells[column] ?? ""]));
    return { device, columns: cells as Record<Column, string>, line: row.line };
  });
}

/**
 * Parses inventory text. The header must have `sn` and `name`; `project`, `description` and `tags`
 * are optional columns, and any other column is an error naming it and the expected columns.
 * Serial numbers must be unique (ignoring case); names, projects and descriptions must not start
 * or end with spaces (a DeviceFleet refuses them). `file` is used in error messages.
 */
export function parseInventory(
  text: string,
  file = "inventory.csv",
  options: ReadInventoryOptions = {},
): InventoryEntry[] {
  return parseInventoryRecords(text, file, [], options).map((record) => record.device);
}

/**
 * Reads an inventory file (UTF-8, with or without a byte-order mark; any other encoding is refused
 * naming it); see {@link parseInventory} and {@link ReadInventoryOptions}.
 * The result goes straight into a DeviceFleet: `devices: readInventory("inventory.csv")`.
 */
export function readInventory(file: string, options: ReadInventoryOptions = {}): InventoryEntry[] {
  return parseInventory(readDataFile(file), file, options);
}

/**
 * Reads an inventory file with columns of the program's own (e.g. `group`), each record's device
 * beside the cells of those columns; see {@link parseInventoryRecords}.
 */
export function readInventoryRecords<const Column extends string>(
  file: string,
  columns: readonly Column[],
  options: ReadInventoryOptions = {},
): InventoryRecord<Column>[] {
  return parseInventoryRecords(readDataFile(file), file, columns, options);
}

/**
 * Inventory text of entries: the header `sn,name,project,description,tags`, then one line per
 * entry (quoted where RFC 4180 requires). Throws for a value the file could not give back as a
 * DeviceFleet takes it: a tag the `tags` cell cannot hold unchanged (see `joinTags`), or a name,
 * project or description that starts or ends with spaces.
 */
export function formatInventory(entries: readonly InventoryEntry[]): string {
  const rows = entries.map((entry) => {
    for (const column of ["name", "project", "description"] as const) {
      const problem = textProblem(entry[column] ?? "", column === "description");
      if (problem) throw new Error(`device ${entry.sn}: ${column} ${problem}`);
    }
    return [
      entry.sn,
      entry.name,
      entry.project ?? "",
      entry.description ?? "",
      joinTags(entry.tags ?? [], `device ${entry.sn}`),
    ];
  });
  return formatCsv(INVENTORY_COLUMNS, rows);
}
