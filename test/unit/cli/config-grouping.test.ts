import { describe, expect, it } from "vitest";
import {
  canonicalJson,
  groupConfigurations,
  writableConfiguration,
  writeOnlyProperties,
} from "../../../cli/export/config-groups";
import { matchesFilter } from "../../../cli/export/read-fleet";
import { thingModelSchema, type ThingModel } from "../../../sdk";

// Through the SDK's schema, as the export receives it.
const tsl: ThingModel = thingModelSchema.parse({
  version: "1.0.0",
  properties: [
    { id: "temperature", accessMode: "R", dataSpec: { dataType: "FLOAT" } },
    { id: "reportInterval", accessMode: "RW", dataSpec: { dataType: "INT" } },
    { id: "label", accessMode: "W", dataSpec: { dataType: "STRING" } },
    { id: "mystery", dataSpec: { dataType: "INT" } },
    { id: "alarm", accessMode: "RW", dataSpec: { dataType: "STRUCT" } },
    { id: "alarm.high", accessMode: "RW", dataSpec: { dataType: "FLOAT", parentId: "alarm" } },
    { id: "alarm.low", accessMode: "RW", dataSpec: { dataType: "FLOAT", parentId: "alarm" } },
    { id: "schedule", accessMode: "RW", dataSpec: { dataType: "ARRAY" } },
  ],
  events: [],
  services: [],
});

describe("writableConfiguration", () => {
  it("keeps RW top-level properties, STRUCT children by short id, and leaves out the rest (write-only too)", () => {
    expect(
      writableConfiguration(tsl, {
        temperature: 21.5,
        reportInterval: 900,
        label: "lobby",
        mystery: 1,
        "alarm.high": 30,
        alarm: { "alarm.high": 28, "alarm.low": 5 },
        schedule: [360, 1320],
        unknown: 1,
      }),
    ).toEqual({ reportInterval: 900, alarm: { high: 28, low: 5 }, schedule: [360, 1320] });
  });

  it("drops values the platform reports as null, and LONGs beyond 2^53 stay strings of digits", () => {
    expect(
      writableConfiguration(tsl, {
        reportInterval: null,
        label: "9007199254740993",
        alarm: { "alarm.high": null, "alarm.low": 5 },
        schedule: [1, null],
      }),
    ).toEqual({ alarm: { low: 5 } });
  });

  it("names the write-only properties the device reported, which the export leaves out", () => {
    expect(writeOnlyProperties(tsl, { label: "x", reportInterval: 1 })).toEqual(["label"]);
    expect(writeOnlyProperties(tsl, { reportInterval: 1 })).toEqual([]);
  });
});

describe("groupConfigurations", () => {
  it("groups identical configurations whatever their key order, largest group first, named by model", () => {
    const groups = groupConfigurations([
      { sn: "240000000001", model: "EnvSense S24", properties: { a: 1, s: { x: 1, y: 2 } } },
      { sn: "660000000001", model: "LinkHub G66", properties: { k: "v" } },
      { sn: "240000000002", model: "EnvSense S24", properties: { s: { y: 2, x: 1 }, a: 1 } },
      { sn: "240000000003", model: "EnvSense S24", properties: { a: 2, s: { x: 1, y: 2 } } },
      { sn: "240000000004", model: "EnvSense S24", properties: { a: 1, s: { x: 1, y: 2 } } },
      { sn: "AC0000000001", model: undefined, properties: { p: [1, 2] } },
      { sn: "AC0000000002", model: undefined, properties: {} },
    ]);
    expect(groups).toEqual([
      {
        name: "config-envsense-s24-1",
        serials: ["240000000001", "240000000002", "240000000004"],
        properties: { a: 1, s: { x: 1, y: 2 } },
      },
      { name: "config-linkhub-g66-1", serials: ["660000000001"], properties: { k: "v" } },
      { name: "config-envsense-s24-2", serials: ["240000000003"], properties: { a: 2, s: { x: 1, y: 2 } } },
      { name: "config-device-1", serials: ["AC0000000001"], properties: { p: [1, 2] } },
    ]);
  });

  it("tells apart values that only look alike", () => {
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: "1" }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
    expect(canonicalJson({ b: { d: 1, c: 2 }, a: true })).toBe('{"a":true,"b":{"c":2,"d":1}}');
  });
});

describe("matchesFilter", () => {
  const device = { project: "building-a", tag: ["floor-1", "critical"] };
  it.each([
    [[], [], true],
    [["building-a", "warehouse"], [], true],
    [["warehouse"], [], false],
    [[], ["critical", "x"], true],
    [[], ["x"], false],
    [["building-a"], ["x", "floor-1"], true],
    [["building-a"], ["x"], false],
  ])("projects %j and tags %j → %s", (projects, tags, expected) => {
    expect(matchesFilter(device, { projects, tags })).toBe(expected);
  });

  it("a device without a project matches no --project; one without tags no --tag", () => {
    expect(matchesFilter({ project: undefined, tag: undefined }, { projects: ["a"], tags: [] })).toBe(false);
    expect(matchesFilter({ project: undefined, tag: undefined }, { projects: [], tags: ["t"] })).toBe(false);
    expect(matchesFilter({ project: undefined, tag: undefined }, { projects: [], tags: [] })).toBe(true);
  });
});
