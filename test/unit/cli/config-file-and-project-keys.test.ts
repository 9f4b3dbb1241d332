import { describe, expect, it } from "vitest";
import {
  formatConfigGroups,
  groupByProject,
  parseConfigGroups,
  projectKey,
  slugify,
  type ConfigGroup,
} from "../../../inventory";

describe("config.json", () => {
  const groups: ConfigGroup[] = [
    {
      name: "config-envsense-s24-1",
      serials: ["240000A10001", "240000A10002"],
      properties: { reportInterval: 900, alarmThreshold: { high: 28, low: 5 }, label: "lobby ü" },
    },
    { name: "config-flowcontrol-ac-1", serials: ["AC0000C30001"], properties: { schedule: [360, 1320] } },
  ];

  it("round-trips groups, two-space indented", () => {
    const text = formatConfigGroups(groups);
    expect(text.startsWith('{\n  "groups": [\n')).toBe(true);
    expect(text.endsWith("}\n")).toBe(true);
    expect(parseConfigGroups(text)).toEqual(groups);
  });

  it("keeps integers beyond 2^53 exact, as strings of digits", () => {
    const text =
      '{"groups":[{"name":"g","serials":["240000A10001"],"properties":{"counter":9007199254740993}}]}';
    expect(parseConfigGroups(text)[0]?.properties).toEqual({ counter: "9007199254740993" });
  });

  it("with the inventory, checks every serial number and spells it as the inventory does", () => {
    const text = formatConfigGroups([{ name: "g", serials: ["240000a10001"], properties: { x: 1 } }]);
    expect(parseConfigGroups(text, "config.json", [{ sn: "240000A10001" }])[0]?.serials).toEqual([
      "240000A10001",
    ]);
    expect(() => parseConfigGroups(text, "config.json", [{ sn: "240000A10002" }])).toThrow(
      'config.json, column "groups.0.serials.0": 240000a10001 is not in the inventory',
    );
  });

  it.each([
    ["not JSON", "{", "config.json: not valid JSON"],
    [
      "a null value",
      '{"groups":[{"name":"g","serials":["240000A10001"],"properties":{"x":null}}]}',
      'config.json, column "groups.0.properties.x": expected a string, number, boolean, list or object (null is not a value)',
    ],
    [
      "no serials",
      '{"groups":[{"name":"g","serials":[],"properties":{"x":1}}]}',
      'config.json, column "groups.0.serials": a group needs at least one serial number',
    ],
    [
      "a bad serial",
      '{"groups":[{"name":"g","serials":["nope"],"properties":{"x":1}}]}',
      'config.json, column "groups.0.serials.0": a serial number is 12 to 16 hex digits',
    ],
    [
      "no properties",
      '{"groups":[{"name":"g","serials":["240000A10001"],"properties":{}}]}',
      'config.json, column "groups.0.properties": a group needs at least one property',
    ],
    [
      "a repeated name",
      '{"groups":[{"name":"g","serials":["240000A10001"],"properties":{"x":1}},{"name":"g","serials":["240000A10002"],"properties":{"x":2}}]}',
      'config.json, column "groups.1.name": group name "g" is used twice',
    ],
    [
      "a device in two groups",
      '{"groups":[{"name":"a","serials":["240000A10001"],"properties":{"x":1}},{"name":"b","serials":["240000a10001"],"properties":{"x":2}}]}',
      'config.json, column "groups.1.serials.0": 240000a10001 is also in group "a"',
    ],
  ])("refuses %s, naming where", (_what, text, message) => {
    expect(() => parseConfigGroups(text)).toThrow(message);
  });
});

describe("project keys (fleet resource names)", () => {
  it("is the project itself when it is already a slug", () => {
    expect(projectKey("building-a")).toBe("building-a");
    expect(projectKey("hq2")).toBe("hq2");
  });

  it("adds a hash of the project otherwise, so projects that slug alike stay apart", () => {
    const spaced = projectKey("Building A");
    const underscored = projectKey("building_a");
    expect(spaced).toMatch(/^building-a-[0-9a-f]{8}$/);
    expect(underscored).toMatch(/^building-a-[0-9a-f]{8}$/);
    expect(new Set([spaced, underscored, projectKey("building-a")]).size).toBe(3);
    // Stable: derived from the name alone, whatever other projects exist.
    expect(projectKey("Building A")).toBe(spaced);
  });

  it("keeps devices without a project apart from a project named unassigned", () => {
    expect(projectKey(undefined)).toBe("unassigned");
    expect(projectKey("unassigned")).toMatch(/^unassigned-[0-9a-f]{8}$/);
  });

  it("handles accents, symbols only and long names", () => {
    expect(slugify("Zürich Süd / Hall 3")).toBe("zurich-sud-hall-3");
    expect(projectKey("東京")).toMatch(/^project-[0-9a-f]{8}$/);
    const long = projectKey("a".repeat(60));
    expect(long).toMatch(/^a{40}-[0-9a-f]{8}$/);
  });

  it("groups an inventory by project in order of first appearance", () => {
    const groups = groupByProject([
      { sn: "240000A10001", name: "a", project: "b" },
      { sn: "240000A10002", name: "b" },
      { sn: "240000A10003", name: "c", project: "b" },
      { sn: "240000A10004", name: "d", project: "a" },
    ]);
    expect(groups.map((g) => [g.key, g.project, g.entries.map((e) => e.name)])).toEqual([
      ["b", "b", ["a", "c"]],
      ["unassigned", undefined, ["b"]],
      ["a", "a", ["d"]],
    ]);
  });
});
