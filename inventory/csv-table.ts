/**
 * CSV as the inventory files use it: RFC 4180 (csv-parse and csv-stringify), a header line naming
 * the columns, one record a line (or several lines when a quoted cell holds line breaks), and every
 * record remembered with the line it starts on so that errors can point at it.
 */
import { CsvError, parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { z } from "zod";
import { InventoryError } from "./inventory-error";

/** One record: its cells by column name, and the 1-based line it starts on. */
export interface CsvRow {
  readonly line: number;
  readonly cells: Readonly<Record<string, string>>;
}

/** A parsed file: the header's column names in order, and the records below it. */
export interface CsvTable {
  readonly columns: readonly string[];
  readonly rows: readonly CsvRow[];
  /**
   * Set when the file's last record is not followed by a line end: complete, or cut off inside
   * its last cell (which no reader can tell apart). Its line number.
   */
  readonly lastLineUnended?: number;
}

/**
 * With `info`, csv-parse returns `{ record, info }` per record, which its typings do not describe
 * (they say `string[][]`); this schema says it and checks it. `info.bytes` is the UTF-8 offset just
 * past the record's line break.
 */
const recordsWithInfoSchema = z.array(
  z.object({ record: z.array(z.string()), info: z.object({ bytes: z.number() }) }),
);

/** A record and the 1-based line it starts on. */
interface LocatedRecord {
  readonly record: string[];
  readonly line: number;
}

/**
 * Line numbers by byte offset. csv-parse's own `info.lines` miscounts CRLF line breaks inside quoted
 * cells, so lines are counted here from the byte offsets it reports, which are exact. CRLF, LF and
 * a lone CR each end a line, as they do for the parser.
 */
class LineIndex {
  readonly #newlines: number[] = [];

  constructor(private readonly bytes: Buffer) {
    for (let i = 0; i < bytes.length; i += 1) {
      if (bytes[i] === 0x0a || (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a)) this.#newlines.push(i);
    }
  }

  /** The 1-based line of the byte at `offset`. */
  lineAt(offset: number): number {
    let low = 0;
    let high = this.#newlines.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((this.#newlines[mid] ?? Infinity) < offset) low = mid + 1;
      else high = mid;
    }
    return low + 1;
  }

  /** The line where the record after `offset` starts: past blank lines and leading spaces. */
  recordLine(offset: number): number {
    let at = offset;
    // A byte-order mark, blank lines and whitespace before a record belong to no record.
    if (at === 0 && this.bytes[0] === 0xef && this.bytes[1] === 0xbb && this.bytes[2] === 0xbf) at = 3;
    while (at < this.bytes.length && [0x20, 0x09, 0x0d, 0x0a].includes(this.bytes[at] ?? 0)) at += 1;
    return this.lineAt(at);
  }
}

/**
 * Every line end is a line end. Without this, csv-parse takes the first one it meets for the whole
 * file: in a CRLF file with LF-only lines (git's autocrlf, an editor or a script appending rows),
 * an LF-only line is glued into the previous row's last cell and its device silently vanishes.
 */
const RECORD_DELIMITERS = ["\r\n", "\n", "\r"];

function parseRecords(text: string, file: string): LocatedRecord[] {
  const lines = new LineIndex(Buffer.from(text, "utf8"));
  let parsed: z.output<typeof recordsWithInfoSchema>;
  try {
    const records: unknown = parse(text, {
      bom: true,
      info: true,
      record_delimiter: RECORD_DELIMITERS,
      // Whitespace around delimiters is ignored (hand-edited files often have "a, b"); whitespace
      // inside quotes is kept, and formatCsv quotes cells that begin or end with whitespace.
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
    });
    parsed = recordsWithInfoSchema.parse(records);
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // `bytes_records` is where the last complete record ended: the broken one starts after it.
    const end = (error as CsvError & { bytes_records?: number }).bytes_records ?? 0;
    throw new InventoryError(
      { file, line: lines.recordLine(end) },
      `not valid CSV: ${error.message} (${error.code})`,
    );
  }
  const located: LocatedRecord[] = [];
  let end = 0;
  for (const { record, info } of parsed) {
    const line = lines.recordLine(end);
    end = info.bytes;
    // A line of empty cells (",,,", as spreadsheets leave them) is a blank line.
    if (record.every((cell) => cell === "")) continue;
    located.push({ record, line });
  }
  return located;
}

/**
 * Parses a CSV text with a header line. `required` columns must be in the header, `optional` ones
 * may be, and any other column is an error naming it and the expected columns: a misspelled header
 * (`Tags`, `nmae`) must never be read as "no tags" or "no name". A record with more cells than the
 * header has columns is an error (usually a comma that should have been quoted); missing trailing
 * cells are empty.
 */
export function parseCsvTable(
  text: string,
  file: string,
  required: readonly string[],
  optional: readonly string[] = [],
): CsvTable {
  const [headerRecord, ...records] = parseRecords(text, file);
  if (headerRecord === undefined) {
    throw new InventoryError(
      { file },
      `the file is empty; the first line must name the columns (${required.join(",")})`,
    );
  }
  const headerLine = headerRecord.line;
  const columns = headerRecord.record;
  const seen = new Set<string>();
  for (const [index, column] of columns.entries()) {
    if (column === "") {
      throw new InventoryError({ file, line: headerLine }, `header cell ${index + 1} is empty`);
    }
    if (seen.has(column))
      throw new InventoryError({ file, line: headerLine }, `column "${column}" appears twice`);
    seen.add(column);
  }
  const expected = [...required, ...optional];
  const unknown = columns.find((column) => !expected.includes(column));
  if (unknown !== undefined) {
    throw new InventoryError(
      { file, line: headerLine, column: unknown },
      `unknown column "${unknown}"${suggestion(unknown, expected)}; the columns are ${expected.join(", ")}` +
        ` (${required.join(" and ")} required)`,
    );
  }
  const missing = required.filter((name) => !seen.has(name));
  if (missing.length > 0) {
    throw new InventoryError(
      { file, line: headerLine },
      `the header must have the column${missing.length === 1 ? "" : "s"} ${missing.join(", ")} (found: ${columns.join(",")})`,
    );
  }
  const unended = /[\r\n]\s*$/.test(text) ? undefined : records.at(-1);
  if (unended !== undefined && unended.record.length < columns.length) {
    throw new InventoryError(
      { file, line: unended.line },
      `the file ends in the middle of this line (${unended.record.length} of ${columns.length} cells, and no line ` +
        "end): it looks cut off. Restore the file; if the line is complete, end it with a line break",
    );
  }
  const rows = records.map(({ record, line }): CsvRow => {
    if (record.length > columns.length) {
      throw new InventoryError(
        { file, line },
        `${record.length} cells, but the header has ${columns.length} columns (quote a cell that contains a comma)`,
      );
    }
    const cells: Record<string, string> = {};
    columns.forEach((column, index) => (cells[column] = record[index] ?? ""));
    return { line, cells };
  });
  return unended === undefined ? { columns, rows } : { columns, rows, lastLineUnended: unended.line };
}

/** ` (did you mean "tags"?)` for a column that is a known one miscased or mistyped, else nothing. */
function suggestion(column: string, expected: readonly string[]): string {
  const lower = column.trim().toLowerCase();
  const near =
    expected.find((name) => name.toLowerCase() === lower) ??
    expected.find((name) => editDistance(name.toLowerCase(), lower) <= 2);
  return near === undefined ? "" : ` (did you mean "${near}"?)`;
}

/** Levenshtein distance: insertions, deletions and substitutions (`nmae` → `name` is 2). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * CSV text of a header and rows, `\n`-terminated. Cells are quoted only when they must be: a
 * delimiter, quote or line break inside, or whitespace at either end (which the parser would trim).
 */
export function formatCsv(columns: readonly string[], rows: readonly (readonly string[])[]): string {
  return stringify([columns, ...rows], { record_delimiter: "unix", quoted_match: /^\s|\s$/ });
}
