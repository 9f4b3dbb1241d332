/**
 * Inventory files as people damage them (issue #36): mixed line endings, a header with no rows,
 * Latin-1 and UTF-16 exports, a file cut off, control characters, a path that is not a file. Each
 * was read without error before, and a DeviceFleet read from it removed or rewrote devices.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InventoryError, parseInventory, readInventory, readRps } from "../../../inventory";

const HEADER = "sn,name,project,description,tags";
const row = (n: number) => `240000D1000${n},sensor-${n},site-a,,`;

function errorOf(read: () => unknown): InventoryError {
  try {
    read();
  } catch (error) {
    if (error instanceof InventoryError) return error;
    throw error;
  }
  throw new Error("read without error");
}

function fileOf(bytes: Buffer | string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "inventory-damaged-")), "inventory.csv");
  writeFileSync(file, bytes);
  return file;
}

describe("every line ending is a line end", () => {
  it("reads a CRLF file with LF-only lines as one device a line (was: a row glued into a cell)", () => {
    const text = `${HEADER}\r\n${row(1)}\r\n${row(2)}\n${row(3)}\r\n${row(4)}\n${row(5)}\r\n`;
    const serials = parseInventory(text).map((entry) => entry.sn);
    expect(serials).toEqual(["240000D10001", "240000D10002", "240000D10003", "240000D10004", "240000D10005"]);
    expect(parseInventory(text).every((entry) => entry.project === "site-a")).toBe(true);
  });

  it("reads lone CRs as line ends and names lines by them", () => {
    const text = `${HEADER}\r${row(1)}\r${row(2)}\n240000D10003,,,,\r\n`;
    expect(errorOf(() => parseInventory(text)).message).toBe(
      'inventory.csv:4, column "name": device 240000D10003 has no name',
    );
  });

  it("refuses a row with too many cells on its own line, not a glued one", () => {
    const text = `sn,name\r\n240000D10001,a\n240000D10002,b,c\r\n`;
    expect(errorOf(() => parseInventory(text)).message).toBe(
      "inventory.csv:3: 3 cells, but the header has 2 columns (quote a cell that contains a comma)",
    );
  });
});

describe("a header with no rows", () => {
  it("is refused unless the program allows an empty inventory", () => {
    const error = errorOf(() => parseInventory(`${HEADER}\r\n`));
    expect(error.message).toBe(
      "inventory.csv: the file has a header and no devices; a fleet read from it would remove every device it " +
        "manages. If the file is meant to be empty, pass { allowEmpty: true } to readInventory; otherwise restore its rows",
    );
    expect(readInventory(fileOf(`${HEADER}\n`), { allowEmpty: true })).toEqual([]);
  });
});

describe("a file that is not UTF-8", () => {
  it("refuses Latin-1 / Windows-1252, naming the line, what it would read as and how to save it", () => {
    const bytes = Buffer.concat([
      Buffer.from(`${HEADER}\n${row(1)}\n240000D10002,capteur-entr`),
      Buffer.from([0xe9]),
      Buffer.from("e,site-a,,\n"),
    ]);
    const file = fileOf(bytes);
    const error = errorOf(() => readInventory(file));
    expect(error).toMatchObject({ file, line: 3 });
    expect(error.problem).toMatch(
      /^the file is not UTF-8: byte 0xE9 cannot be read as UTF-8; it looks like Latin-1 \/ Windows-1252 \(the line would read "240000D10002,capteur-entrée,site-a,,"\)/,
    );
    expect(error.problem).toContain('"CSV UTF-8 (Comma delimited)"');
  });

  it.each([
    [
      "with a byte-order mark",
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${HEADER}\n`, "utf16le")]),
    ],
    ["without one", Buffer.from(`${HEADER}\n${row(1)}\n`, "utf16le")],
  ])("refuses UTF-16 %s, saying so (was: unknown column)", (_, bytes) => {
    expect(errorOf(() => readInventory(fileOf(bytes))).problem).toMatch(
      /^the file is not UTF-8: it looks like UTF-16 \("Unicode Text"\)/,
    );
  });

  it("refuses it in rps.csv too", () => {
    const bytes = Buffer.concat([
      Buffer.from("sn,profileUrl\n240000D10001,https://rps.example/caf"),
      Buffer.from([0xe9, 0x0a]),
    ]);
    expect(errorOf(() => readRps(fileOf(bytes))).problem).toMatch(/^the file is not UTF-8/);
  });
});

describe("a file cut off", () => {
  it("refuses a last row cut at a cell boundary (was: the device's project cleared)", () => {
    const text = `${HEADER}\n${row(1)}\n240000D10002,sensor-2`;
    expect(errorOf(() => parseInventory(text)).message).toBe(
      "inventory.csv:3: the file ends in the middle of this line (2 of 5 cells, and no line end): it looks cut " +
        "off. Restore the file; if the line is complete, end it with a line break",
    );
  });

  it("warns of a whole last row without its line end, and reads it", () => {
    const warnings: string[] = [];
    const entries = parseInventory(`${HEADER}\n${row(1)}\n${row(2)}`, "inventory.csv", {
      onWarning: (message) => warnings.push(message),
    });
    expect(entries).toHaveLength(2);
    expect(warnings).toEqual([
      "inventory.csv:3: the file's last line has no line end; if the file was cut off, that line's last cell may " +
        "be incomplete. End the file with a line break to silence this warning",
    ]);
    expect(
      parseInventory(`${HEADER}\n${row(1)}\n`, "x", { onWarning: (m) => warnings.push(m) }),
    ).toHaveLength(1);
    expect(warnings).toHaveLength(1);
  });
});

describe("characters no name or tag should carry", () => {
  it.each([
    ["NUL in a name", "240000D10001,a\u0000b,,,", "name", "U+0000 NUL at character 2"],
    ["an ESC sequence in a project", "240000D10001,a,\u001b[31mred,,", "project", "U+001B ESC"],
    [
      "a right-to-left override in a name",
      "240000D10001,\u202Eexe.txt,,,",
      "name",
      "U+202E RIGHT-TO-LEFT OVERRIDE",
    ],
    ["a line break inside a quoted name", '240000D10001,"two\nlines",,,', "name", "U+000A a line break"],
    ["a replacement character", "240000D10001,entr\uFFFDe,,,", "name", "U+FFFD REPLACEMENT CHARACTER"],
    [
      "a control character in a tag",
      "240000D10001,a,,,ok;b\u0007",
      "tags",
      "tag 2 contains control character U+0007",
    ],
  ])("refuses %s, naming the line and column", (_, line, column, what) => {
    const error = errorOf(() => parseInventory(`${HEADER}\n${line}\n`));
    expect(error).toMatchObject({ line: 2, column });
    expect(error.problem).toContain(what);
  });

  it("keeps line breaks and tabs in a description", () => {
    expect(parseInventory(`${HEADER}\n240000D10001,a,,"one\r\ntwo\tthree",\n`)[0]?.description).toBe(
      "one\r\ntwo\tthree",
    );
  });
});

describe("a path that is not an inventory file", () => {
  it("names a missing file as an inventory error, with the directory it was looked for in", () => {
    const error = errorOf(() => readInventory("no-such-inventory.csv"));
    expect(error.message).toBe(
      `no-such-inventory.csv: there is no such file (looked for ${path.resolve("no-such-inventory.csv")}; a ` +
        "relative path is taken from the directory the program runs in: build it from __dirname)",
    );
  });

  it("names a directory as an inventory error", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "inventory-dir-"));
    mkdirSync(path.join(dir, "inventory.csv"));
    expect(errorOf(() => readInventory(path.join(dir, "inventory.csv"))).problem).toBe(
      "it is a directory, not a file",
    );
  });

  it("is an error Pulumi's Node.js host prints without a stack (its RunError mark)", () => {
    expect(errorOf(() => parseInventory("sn,name\nbad,x\n"))).toHaveProperty("__pulumiRunError", true);
  });
});
