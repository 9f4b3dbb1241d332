import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  formatInventory,
  formatRps,
  InventoryError,
  parseInventory,
  parseInventoryRecords,
  parseRps,
  readInventory,
  type InventoryEntry,
} from "../../../inventory";
import type { DeviceFleetArgs } from "../../../provider";
import { DEVICE_FIELDS } from "../../../provider/device/desired";

const tricky: InventoryEntry[] = [
  {
    sn: "240000A10001",
    name: 'lobby, "main" entrance',
    project: "building-a",
    tags: ["floor-1", "critical"],
  },
  {
    sn: "240000A10002",
    name: "server room",
    description: "first line\nsecond line\r\nthird",
    project: "building-a",
  },
  { sn: "660000B20001", name: "Gateway Zürich — 東京 🚀", project: "Building B", tags: ["uplink"] },
  { sn: "AC0000C30001", name: "quoted", description: '"quoted" words' },
  { sn: "5b0000d40001", name: "lower-case serial", tags: ["a", "b", "c"] },
  { sn: "5B0000D40002", name: "=SUM(A1)" },
];

describe("inventory.csv round trip", () => {
  it("reads back exactly what it wrote: quotes, commas, line breaks, unicode", () => {
    const text = formatInventory(tricky);
    expect(text.split("\n")[0]).toBe("sn,name,project,description,tags");
    expect(parseInventory(text)).toEqual(tricky);
  });

  it("refuses to write a name, project or description a DeviceFleet would refuse (spaces at an end)", () => {
    expect(() => formatInventory([{ sn: "AC0000C30001", name: "  padded name  " }])).toThrow(
      /device AC0000C30001: name " {2}padded name {2}" starts or ends with spaces/,
    );
    expect(() => formatInventory([{ sn: "AC0000C30001", name: "n", description: " d" }])).toThrow(
      /device AC0000C30001: description " d" starts or ends with spaces/,
    );
  });

  it("writes the header exactly and quotes only where RFC 4180 needs it", () => {
    const text = formatInventory([
      { sn: "240000A10001", name: "plain", project: "p", tags: ["x", "y"] },
      { sn: "240000A10002", name: 'a "b", c' },
    ]);
    expect(text).toBe(
      'sn,name,project,description,tags\n240000A10001,plain,p,,x;y\n240000A10002,"a ""b"", c",,,\n',
    );
  });

  it("an empty inventory is its header line, read back only when the program allows it", () => {
    expect(formatInventory([])).toBe("sn,name,project,description,tags\n");
    expect(
      parseInventory("sn,name,project,description,tags\n", "inventory.csv", { allowEmpty: true }),
    ).toEqual([]);
  });

  it("refuses a tag the tags cell cannot give back unchanged", () => {
    expect(() => formatInventory([{ sn: "240000A10001", name: "n", tags: ["a;b"] }])).toThrow(
      /device 240000A10001: tag "a;b" cannot be written/,
    );
    expect(() => formatInventory([{ sn: "240000A10001", name: "n", tags: [" a"] }])).toThrow(
      /cannot be written/,
    );
  });
});

describe("reading inventory files people edit", () => {
  it("accepts a byte-order mark, CRLF, blank lines, spaces around delimiters, columns in any order", () => {
    const text =
      "\ufefftags , sn,name\r\n\r\n a; b ;; ,240000A10001 , lobby \r\n,,\r\n,240000A10002,hall\r\n";
    expect(parseInventory(text)).toEqual([
      { sn: "240000A10001", name: "lobby", tags: ["a", "b"] },
      { sn: "240000A10002", name: "hall" },
    ]);
  });

  it("treats empty cells as absent and missing trailing cells as empty", () => {
    expect(parseInventory("sn,name,project,description,tags\n240000A10001,n,,,\n240000A10002,m\n")).toEqual([
      { sn: "240000A10001", name: "n" },
      { sn: "240000A10002", name: "m" },
    ]);
  });

  it.each([
    [
      "a header without sn",
      "name,project\nx,y\n",
      "inventory.csv:1: the header must have the column sn (found: name,project)",
    ],
    ["an empty file", "", "inventory.csv: the file is empty"],
    ["a repeated column", "sn,name,sn\n", 'inventory.csv:1: column "sn" appears twice'],
    [
      "an empty serial number",
      "sn,name\n240000A10001,a\n,b\n",
      'inventory.csv:3, column "sn": the serial number is empty',
    ],
    [
      "a bad serial number",
      "sn,name\nXYZ,b\n",
      'inventory.csv:2, column "sn": "XYZ" is not a serial number (12 to 16 hex digits)',
    ],
    [
      "a missing name",
      "sn,name\n240000A10001,\n",
      'inventory.csv:2, column "name": device 240000A10001 has no name',
    ],
    [
      "too many cells",
      "sn,name\n240000A10001,a,b\n",
      "inventory.csv:2: 3 cells, but the header has 2 columns (quote a cell that contains a comma)",
    ],
    [
      "a repeated tag",
      "sn,name,tags\n240000A10001,a,x;y;x\n",
      'inventory.csv:2, column "tags": tag "x" appears twice',
    ],
    [
      "20 tags",
      `sn,name,tags\n240000A10001,a,${Array.from({ length: 20 }, (_, i) => `t${i}`).join(";")}\n`,
      'inventory.csv:2, column "tags": 20 tags; a device may hold at most 19 (the platform allows 20, and the provider\'s owner tag takes one)',
    ],
    [
      "an unclosed quote",
      'sn,name\n240000A10001,"open\n',
      "inventory.csv:2: not valid CSV: Quote Not Closed",
    ],
  ])("names file, line and column for %s", (_what, text, message) => {
    expect(() => parseInventory(text)).toThrow(InventoryError);
    expect(() => parseInventory(text)).toThrow(message);
  });

  it.each([
    ["Tags", 'unknown column "Tags" (did you mean "tags"?)'],
    ["Project", 'unknown column "Project" (did you mean "project"?)'],
    ["nmae", 'unknown column "nmae" (did you mean "name"?)'],
    ["owner", 'unknown column "owner"; the columns'],
  ])("refuses the unknown or misspelled column %s, naming it and the expected columns", (column, message) => {
    const text = `sn,name,${column}\n240000A10001,a,x\n`;
    expect(() => parseInventory(text)).toThrow(InventoryError);
    expect(() => parseInventory(text)).toThrow(`inventory.csv:1, column "${column}": ${message}`);
    expect(() => parseInventory(text)).toThrow(
      "the columns are sn, name, project, description, tags (sn and name required)",
    );
  });

  it("refuses a quoted name, project or description with spaces at an end, naming line and column", () => {
    expect(() => parseInventory('sn,name,project\n240000A10001,a,"b "\n')).toThrow(
      'inventory.csv:2, column "project": "b " starts or ends with spaces, which a DeviceFleet refuses',
    );
  });

  it("reads the program's own columns only when it names them, beside the device", () => {
    const text = "sn,name,group,tags\n240000A10001,a,sensors,x;y\n240000A10002,b,,\n";
    expect(() => parseInventory(text)).toThrow('unknown column "group"');
    expect(parseInventoryRecords(text, "inventory.csv", ["group"])).toEqual([
      { device: { sn: "240000A10001", name: "a", tags: ["x", "y"] }, columns: { group: "sensors" }, line: 2 },
      { device: { sn: "240000A10002", name: "b" }, columns: { group: "" }, line: 3 },
    ]);
    expect(() => parseInventoryRecords("sn,name,grp\n", "inventory.csv", ["group"])).toThrow(
      'unknown column "grp" (did you mean "group"?)',
    );
  });

  it("returns exactly the declarations a DeviceFleet takes (typecheck included)", () => {
    const text = "sn,name,project,description,tags\n240000A10001,a,p,d,x\n240000A10002,b,,,\n";
    const devices: DeviceFleetArgs["devices"] = parseInventory(text);
    const fields: readonly string[] = DEVICE_FIELDS;
    for (const entry of parseInventory(text)) {
      for (const key of Object.keys(entry)) expect(fields).toContain(key);
    }
    expect(devices).toHaveLength(2);
  });

  it("counts lines inside quoted cells, so the line named is where the record starts", () => {
    const text = 'sn,name,description\n240000A10001,a,"one\ntwo\nthree"\n\n240000a10001,b,\n';
    expect(() => parseInventory(text)).toThrow(
      'inventory.csv:6, column "sn": serial number 240000a10001 is already on line 2',
    );
  });

  it("counts CRLF line breaks inside quoted cells once, and skips rows of empty cells", () => {
    const text = '\ufeffsn,name,description\r\n240000A10001,a,"x\r\ny\r\nz"\r\n,,\r\n\r\nbad,b\r\n';
    expect(() => parseInventory(text)).toThrow('inventory.csv:7, column "sn": "bad" is not a serial number');
    expect(() => parseInventory('sn,name\r\n240000A10001,x\r\n"240000A10002,open\r\nmore\r\n')).toThrow(
      "inventory.csv:3: not valid CSV: Quote Not Closed",
    );
  });

  it("readInventory names the file it was given", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "inventory-"));
    const file = path.join(dir, "fleet.csv");
    writeFileSync(file, "sn,name\n240000A10001,a\nnope,b\n");
    const error = (() => {
      try {
        readInventory(file);
      } catch (e) {
        return e as InventoryError;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InventoryError);
    expect(error).toMatchObject({ file, line: 3, column: "sn" });
    expect(error?.message.startsWith(`${file}:3, column "sn": `)).toBe(true);
  });
});

describe("rps.csv", () => {
  it("round-trips records and writes the header sn,profileUrl", () => {
    const records = [
      { sn: "AC0000C30009", profileUrl: "https://rps.example.com/profiles/hvac?x=1,2" },
      { sn: "240000A10009", profileUrl: "http://rps.example.com/p" },
    ];
    const text = formatRps(records);
    expect(text).toBe(
      'sn,profileUrl\nAC0000C30009,"https://rps.example.com/profiles/hvac?x=1,2"\n240000A10009,http://rps.example.com/p\n',
    );
    expect(parseRps(text)).toEqual(records);
  });

  it.each([
    [
      "a relative URL",
      "sn,profileUrl\nAC0000C30009,/profiles/x\n",
      'rps.csv:2, column "profileUrl": "/profiles/x" is not an absolute URL',
    ],
    [
      "a missing URL",
      "sn,profileUrl\nAC0000C30009,\n",
      'rps.csv:2, column "profileUrl": AC0000C30009 has no profile URL',
    ],
    [
      "a repeated serial",
      "sn,profileUrl\nAC0000C30009,https://a/\nac0000c30009,https://b/\n",
      'rps.csv:3, column "sn": serial number ac0000c30009 is already on line 2',
    ],
    ["a missing column", "sn\nAC0000C30009\n", "rps.csv:1: the header must have the column profileUrl"],
    [
      "a misspelled column",
      "sn,profileURL\nAC0000C30009,https://a/\n",
      'rps.csv:1, column "profileURL": unknown column "profileURL" (did you mean "profileUrl"?)',
    ],
  ])("refuses %s", (_what, text, message) => {
    expect(() => parseRps(text)).toThrow(message);
  });

  it("refuses an emptied file unless allowEmpty, and warns of a last line without its line end", () => {
    expect(() => parseRps("sn,profileUrl\n")).toThrow(
      "rps.csv: the file has a header and no records; an RpsFleet read from it would delete every record it manages",
    );
    expect(parseRps("sn,profileUrl\n", "rps.csv", { allowEmpty: true })).toEqual([]);
    const warnings: string[] = [];
    const cut = parseRps("sn,profileUrl\nAC0000C30009,https://rps.example.com/p", "rps.csv", {
      onWarning: (message) => warnings.push(message),
    });
    expect(cut).toHaveLength(1);
    expect(warnings).toEqual([expect.stringMatching(/^rps\.csv:2: the file's last line has no line end/)]);
  });
});
