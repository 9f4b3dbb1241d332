/**
 * The text of a data file, read as UTF-8 and nothing else. Node's `readFileSync(file, "utf8")`
 * turns every byte that is not UTF-8 into U+FFFD and carries on: a Latin-1 or Windows-1252 export
 * (what spreadsheets write in many locales) then renames `capteur-entrée` to `capteur-entr�e` on
 * the platform, and a UTF-16 file (Excel's "Unicode Text") reads as a header of NUL-riddled cells.
 * Here such a file is refused, naming the encoding it looks like and how to save it as UTF-8; and a
 * path that cannot be read is an {@link InventoryError} naming it, not Node's bare `ENOENT`.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { InventoryError } from "./inventory-error";

/** How to save a file as UTF-8, in the tools people use to edit data files. */
export const SAVE_AS_UTF8 =
  'save it as UTF-8: in Excel "Save As" → "CSV UTF-8 (Comma delimited)", in LibreOffice "Save As" → ' +
  'Character set "Unicode (UTF-8)", in an editor "Save with Encoding" → UTF-8, or convert it with ' +
  "`iconv -f WINDOWS-1252 -t UTF-8 FILE > FILE.utf8`";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const windows1252 = new TextDecoder("windows-1252");

/** The 1-based line of byte `offset` (any of CRLF, LF and CR ends a line). */
function lineOfByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i += 1) {
    if (bytes[i] === 0x0a || (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a)) line += 1;
  }
  return line;
}

/** The offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead < 0xe0 ? 2 : lead >= 0xe0 && lead < 0xf0 ? 3 : 4;
    if (lead >= 0xf5 || (lead >= 0x80 && lead < 0xc2)) return i;
    try {
      utf8.decode(bytes.subarray(i, i + length));
    } catch {
      return i;
    }
    i += length;
  }
  return bytes.length;
}

/**
 * Decodes a data file's bytes as UTF-8 (a byte-order mark is kept for the CSV reader to skip).
 * @throws InventoryError for UTF-16 (by its byte-order mark or its NUL bytes) and for bytes that
 * are not UTF-8, naming the line, what the text would read as in Windows-1252, and how to save it.
 */
export function decodeDataFile(bytes: Uint8Array, file: string): string {
  const utf16 =
    (bytes[0] === 0xff && bytes[1] === 0xfe) ||
    (bytes[0] === 0xfe && bytes[1] === 0xff) ||
    // Without a byte-order mark: ASCII text in UTF-16 has a NUL beside every character.
    (bytes.length >= 4 && ((bytes[1] === 0 && bytes[3] === 0) || (bytes[0] === 0 && bytes[2] === 0)));
  if (utf16) {
    throw new InventoryError(
      { file },
      `the file is not UTF-8: it looks like UTF-16 ("Unicode Text"), which this reader does not take; ${SAVE_AS_UTF8}`,
    );
  }
  try {
    return utf8.decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    const line = lineOfByte(bytes, at);
    const lineStart = Math.max(bytes.lastIndexOf(0x0a, at - 1), bytes.lastIndexOf(0x0d, at - 1), -1) + 1;
    const sample = windows1252.decode(bytes.subarray(lineStart, Math.min(bytes.length, at + 24)));
    const byte = (bytes[at] as number).toString(16).toUpperCase().padStart(2, "0");
    throw new InventoryError(
      { file, line },
      `the file is not UTF-8: byte 0x${byte} cannot be read as UTF-8; it looks like Latin-1 / Windows-1252 ` +
        `(the line would read ${JSON.stringify(sample.split(/\r|\n/)[0])}), what spreadsheets export in many ` +
        `locales; ${SAVE_AS_UTF8}`,
    );
  }
}

/**
 * Reads a data file's text (see {@link decodeDataFile}).
 * @throws InventoryError naming the file when it is missing, a directory or unreadable.
 */
export function readDataFile(file: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? `there is no such file (looked for ${path.resolve(file)}; a relative path is taken from the ` +
          "directory the program runs in: build it from __dirname)"
        : code === "EISDIR"
          ? "it is a directory, not a file"
          : `it cannot be read (${code ?? (error as Error).message})`;
    throw new InventoryError({ file }, why);
  }
  return decodeDataFile(bytes, file);
}
