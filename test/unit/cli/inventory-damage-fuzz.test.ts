/**
 * A fuzz test of the inventory reader (issue #36 item 3): fast-check writes inventories and damages
 * them the way people and their tools do — each record ended by CRLF, LF or a lone CR (git's
 * autocrlf, an editor, a script appending rows), spreadsheet quoting (every cell quoted, trailing
 * empty cells, rows of commas, blank lines, spaces around delimiters, a byte-order mark), a
 * Latin-1 or UTF-16 export, a file cut off at any byte. The property: the reader either refuses the
 * file with an InventoryError, or returns every device the file still lists, each exactly as
 * written — and a device it returns differently (its last cell cut) only with a warning.
 * Before #36, one LF-only line in a CRLF file failed it (a device glued into its neighbour's cell).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeDataFile,
  formatInventory,
  InventoryError,
  parseInventory,
  type InventoryEntry,
} from "../../../inventory";

const hex = fc.constantFrom(..."0123456789ABCDEFabcdef");
const serial = fc.string({ unit: hex, minLength: 12, maxLength: 16 });
/** Text a name holds: commas, quotes, semicolons, accents, CJK, emoji, inner spaces. */
const textChar = fc.constantFrom(..."abcXYZ019 ,;\"'=-_/é東🚀".split(/(?:)/u));
const text = fc
  .string({ unit: textChar, minLength: 1, maxLength: 12 })
  .map((value) => value.trim())
  .filter((value) => value !== "");
const description = fc.array(text, { minLength: 1, maxLength: 3 }).map((lines) => lines.join("\n"));
const tag = text.map((value) => value.replaceAll(";", "").trim()).filter((value) => value !== "");
const entry: fc.Arbitrary<InventoryEntry> = fc.record(
  {
    sn: serial,
    name: text,
    project: text,
    description,
    tags: fc.uniqueArray(tag, { minLength: 1, maxLength: 4 }),
  },
  { requiredKeys: ["sn", "name"] },
);
const inventory = fc.uniqueArray(entry, { minLength: 1, maxLength: 8, selector: (e) => e.sn.toUpperCase() });

const ending = fc.constantFrom("\r\n", "\n", "\r");

interface Damage {
  readonly endings: string[];
  readonly quoteAll: boolean;
  readonly bom: boolean;
  readonly blankLines: boolean;
  readonly spaces: boolean;
  readonly encoding: "utf8" | "latin1" | "utf16le" | "utf16le-bom";
  /** Where the file is cut, as a share of its bytes (1: not cut). */
  readonly cut: number;
}

const damage = (records: number): fc.Arbitrary<Damage> =>
  fc.record({
    endings: fc.array(ending, { minLength: records + 1, maxLength: records + 1 }),
    quoteAll: fc.boolean(),
    bom: fc.boolean(),
    blankLines: fc.boolean(),
    spaces: fc.boolean(),
    encoding: fc.constantFrom("utf8", "utf8", "utf8", "latin1", "utf16le", "utf16le-bom"),
    cut: fc.oneof(fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
  });

/** The file's records (header first) as CSV text without their line ends. */
function recordsOf(entries: readonly InventoryEntry[], quoteAll: boolean, spaces: boolean): string[] {
  const lines = entries.map((e) => {
    // formatInventory writes one record; its line breaks inside quotes stay, its last one goes.
    const record = formatInventory([e]).slice("sn,name,project,description,tags\n".length, -1);
    if (!quoteAll) return record;
    const cells = [e.sn, e.name, e.project ?? "", e.description ?? "", (e.tags ?? []).join(";")];
    return cells.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(spaces ? " , " : ",");
  });
  return ["sn,name,project,description,tags", ...lines];
}

/** The damaged file's bytes, and how many whole records (header included) precede the cut. */
function damaged(
  entries: readonly InventoryEntry[],
  d: Damage,
): { bytes: Buffer; whole: number; cutInside: boolean; encoding: Damage["encoding"] } {
  const records = recordsOf(entries, d.quoteAll, d.spaces);
  let body = d.bom ? "\ufeff" : "";
  const ends: number[] = [];
  records.forEach((record, i) => {
    body += record + (d.endings[i] as string);
    ends.push(body.length);
    if (d.blankLines && i % 2 === 0) body += i % 4 === 0 ? d.endings[i] : `,,,,${d.endings[i] as string}`;
  });
  // A Latin-1 export of text Latin-1 cannot hold writes "?" for it: another file, not a damaged one.
  const encoding =
    d.encoding === "latin1" && [...body].some((c) => c.charCodeAt(0) > 0xff) ? "utf8" : d.encoding;
  const encode = (s: string) =>
    encoding === "utf8"
      ? Buffer.from(s, "utf8")
      : encoding === "latin1"
        ? Buffer.from(s, "latin1")
        : Buffer.concat([
            Buffer.from(encoding === "utf16le-bom" ? [0xff, 0xfe] : []),
            Buffer.from(s, "utf16le"),
          ]);
  const full = encode(body);
  const cutAt = Math.floor(full.length * d.cut);
  const bytes = full.subarray(0, cutAt);
  // Whole records: those whose line end lies inside the kept bytes.
  const whole = ends.filter((end) => encode(body.slice(0, end)).length <= cutAt).length;
  return { bytes, whole, cutInside: cutAt < full.length, encoding };
}

describe("inventory files damaged the way people damage them", () => {
  it("are refused, or read with every device they still list, exactly as written", () => {
    fc.assert(
      fc.property(
        inventory.chain((entries) => fc.tuple(fc.constant(entries), damage(entries.length))),
        ([entries, d]) => {
          const { bytes, whole, cutInside, encoding } = damaged(entries, d);
          const warnings: string[] = [];
          let read: InventoryEntry[];
          try {
            read = parseInventory(decodeDataFile(bytes, "inventory.csv"), "inventory.csv", {
              onWarning: (message) => warnings.push(message),
            });
          } catch (error) {
            if (!(error instanceof InventoryError)) throw error;
            // A file intact but for its line endings, quoting and blank lines must not be refused.
            const asciiOrUtf8 = encoding === "utf8" || bytes.every((byte) => byte < 0x80);
            if (!cutInside && asciiOrUtf8 && !encoding.startsWith("utf16")) throw error;
            return;
          }
          expect(encoding.startsWith("utf16")).toBe(false);
          const bySerial = new Map(entries.map((e) => [e.sn.toUpperCase(), e]));
          // Every device whose record is whole in the file is read, exactly.
          for (const e of entries.slice(0, Math.max(0, whole - 1))) {
            expect(read.find((r) => r.sn === e.sn)).toEqual(e);
          }
          // Anything else read is a device of the file; differing from it only with a warning.
          for (const r of read) {
            const original = bySerial.get(r.sn.toUpperCase());
            expect(original?.sn).toBe(r.sn);
            if (JSON.stringify(r) !== JSON.stringify(original)) expect(warnings).toHaveLength(1);
          }
        },
      ),
      { numRuns: 400, seed: Number(process.env.FUZZ_SEED ?? 3602) },
    );
  });
});
