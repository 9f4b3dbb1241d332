/**
 * `rps.csv`: the RPS (Redirection and Provisioning Service) records of devices not yet on the
 * platform, `sn,profileUrl`, one record a line.
 */
import { readDataFile } from "./file-text";
import { formatCsv, parseCsvTable } from "./csv-table";
import { serialKey, serialProblem } from "./fields";
import { InventoryError } from "./inventory-error";
import type { ReadInventoryOptions } from "./inventory-file";

/** The columns of `rps.csv`, in the order they are written. */
export const RPS_COLUMNS = ["sn", "profileUrl"] as const;

/** One RPS record: a serial number and the profile URL the device is redirected to. */
export interface RpsEntry {
  sn: string;
  profileUrl: string;
}

function urlProblem(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === "https:" || url.protocol === "http:"
      ? undefined
      : `"${text}" is not an http(s) URL`;
  } catch {
    return `"${text}" is not an absolute URL`;
  }
}

/**
 * Parses RPS records: header with `sn` and `profileUrl` (any other column is an error), a serial
 * number and an absolute URL on each line, serial numbers unique (ignoring case). A file with a
 * header and no record is refused unless `options.allowEmpty` (as an inventory is: an emptied file
 * is far more often an accident), and a last line without its line end is warned about.
 */
export function parseRps(text: string, file = "rps.csv", options: ReadInventoryOptions = {}): RpsEntry[] {
  const table = parseCsvTable(text, file, RPS_COLUMNS);
  if (table.rows.length === 0 && options.allowEmpty !== true) {
    throw new InventoryError(
      { file },
      "the file has a header and no records; an RpsFleet read from it would delete every record it manages. If " +
        "the file is meant to be empty, pass { allowEmpty: true } to readRps; otherwise restore its rows",
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
  return table.rows.map(({ line, cells }) => {
    const sn = cells.sn ?? "";
    const profileUrl = cells.profileUrl ?? "";
    const earlier = firstLine.get(serialKey(sn));
    const snProblem =
      sn === ""
        ? "the serial number is empty"
        : (serialProblem(sn) ??
          (earlier === undefined ? undefined : `serial number ${sn} is already on line ${earlier}`));
    if (snProblem) throw new InventoryError({ file, line, column: "sn" }, snProblem);
    firstLine.set(serialKey(sn), line);
    if (profileUrl === "")
      throw new InventoryError({ file, line, column: "profileUrl" }, `${sn} has no profile URL`);
    const badUrl = urlProblem(profileUrl);
    if (badUrl) throw new InventoryError({ file, line, column: "profileUrl" }, badUrl);
    return { sn, profileUrl };
  });
}

/** Reads an RPS file; see {@link parseRps}. The result goes straight into an RpsFleet's `records`. */
export function readRps(file: string, options: ReadInventoryOptions = {}): RpsEntry[] {
  return parseRps(readDataFile(file), file, options);
}

/** `rps.csv` text of records: the header `sn,profileUrl`, then one line per record. */
export function formatRps(entries: readonly RpsEntry[]): string {
  return formatCsv(
    RPS_COLUMNS,
    entries.map(({ sn, profileUrl }) => [sn, profileUrl]),
  );
}
