/**
 * `inventory.csv`: one device a line, `sn,name,project,description,tags`, tags separated by `;`.
 * This is the file people edit in pull requests, so reading it is strict and every error names the
 * file, the line and the column.
 */
import { readFileSync } from "node:fs";
import { formatCsv, parseCsvTable, type CsvRow } from "./csv-table";
import { joinTags, serialKey, serialProblem, splitTags, tagsProblem } from "./fields";
import { InventoryError } from "./inventory-error";

/** The inventory's columns, in the order they are written. */
export const INVENTORY_COLUMNS = ["sn", "name", "project", "description", "tags"] as const;

/** One device of an inventory. Empty cells are absent properties. */
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
  /** Cells of columns other than the inventory's own, by column name (non-empty cells only). */
  extra?: Record<string, string>;
}

const KNOWN = new Set<string>(INVENTORY_COLUMNS);

function entryOf(row: CsvRow, file: string, extraColumns: readonly string[]): InventoryEntry {
  const at = (column: string) => ({ file, line: row.line, column });
  const cell = (column: string) => row.cells[column] ?? "";
  const sn = cell("sn");
  if (sn === "") throw new InventoryError(at("sn"), "the serial number is empty");
  const snProblem = serialProblem(sn);
  if (snProblem) throw new InventoryError(at("sn"), snProblem);
  const name = cell("name");
  if (name === "") throw new InventoryError(at("name"), `device ${sn} has no name`);
  const entry: InventoryEntry = { sn, name };
  if (cell("project") !== "") entry.project = cell("project");
  if (cell("description") !== "") entry.description = cell("description");
  const tags = splitTags(cell("tags"));
  const problem = tagsProblem(tags);
  if (problem) throw new InventoryError(at("tags"), problem);
  if (tags.length > 0) entry.tags = tags;
  const extra: Record<string, string> = {};
  for (const column of extraColumns) if (cell(column) !== "") extra[column] = cell(column);
  if (Object.keys(extra).length > 0) entry.extra = extra;
  return entry;
}

/**
 * Parses inventory text. The header must have `sn` and `name`; `project`, `description` and `tags`
 * are optional columns, and any other column is kept in each entry's `extra`. Serial numbers must be
 * unique (ignoring case). `file` is used in error messages.
 */
export function parseInventory(text: string, file = "inventory.csv"): InventoryEntry[] {
  const table = parseCsvTable(text, file, ["sn", "name"]);
  const extraColumns = table.columns.filter((column) => !KNOWN.has(column));
  const firstLine = new Map<string, number>();
  return table.rows.map((row) => {
    const entry = entryOf(row, file, extraColumns);
    const key = serialKey(entry.sn);
    const earlier = firstLine.get(key);
    if (earlier !== undefined) {
      throw new InventoryError(
        { file, line: row.line, column: "sn" },
        `serial number ${entry.sn} is already on line ${earlier}`,
      );
    }
    firstLine.set(key, row.line);
    return entry;
  });
}

/** Reads an inventory file (UTF-8, with or without a byte-order mark); see {@link parseInventory}. */
export function readInventory(file: string): InventoryEntry[] {
  return parseInventory(readFileSync(file, "utf8"), file);
}

/**
 * Inventory text of entries: the header `sn,name,project,description,tags`, then the columns of
 * `extra` in the order they first appear, one line per entry (quoted where RFC 4180 requires).
 * Throws for a tag the `tags` cell could not give back unchanged (see `joinTags`).
 */
export function formatInventory(entries: readonly InventoryEntry[]): string {
  const extraColumns: string[] = [];
  for (const entry of entries) {
    for (const column of Object.keys(entry.extra ?? {})) {
      if (!KNOWN.has(column) && !extraColumns.includes(column)) extraColumns.push(column);
    }
  }
  const rows = entries.map((entry) => [
    entry.sn,
    entry.name,
    entry.project ?? "",
    entry.description ?? "",
    joinTags(entry.tags ?? [], `device ${entry.sn}`),
    ...extraColumns.map((column) => entry.extra?.[column] ?? ""),
  ]);
  return formatCsv([...INVENTORY_COLUMNS, ...extraColumns], rows);
}
