/**
 * `rps.csv`: the RPS (Redirection and Provisioning Service) records of devices not yet on the
 * platform, `sn,profileUrl`, one record a line.
 */
import { readDataFile } from "./file-text";
import { formatCsv, parseCsvTable } from "./csv-table";
import { serialKey, serialProblem } from "./fields";
import { InventoryError } from "./inventory-error";

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
 * number and an absolute URL on each line, serial numbers unique (ignoring case).
 */
export function parseRps(text: string, file = "rps.csv"): RpsEntry[] {
  const table = parseCsvTable(text, file, RPS_COLUMNS);
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

/** Reads an RPS file; see {@link parseRps}. */
export function readRps(file: string): RpsEntry[] {
  return parseRps(readDataFile(file), file);
}

/** `rps.csv` text of records: the header `sn,profileUrl`, then one line per record. */
export function formatRps(entries: readonly RpsEntry[]): string {
  return formatCsv(
    RPS_COLUMNS,
    entries.map(({ sn, profileUrl }) => [sn, profileUrl]),
  );
}
