/**
 * The DeviceConfig diff: per-property changes, device sets compared as sets, unknowns at preview,
 * and replacement (delete first) only when switching between properties and profile.
 */
import { describe, expect, it } from "vitest";
import { changedInputs, diffConfig } from "../../../provider/device-config/changes";
import { UNKNOWN } from "../../../provider/shared/input-checks";

const A = "9007199254741001";
const B = "9007199254741002";
const olds = {
  deviceIds: [A, B],
  properties: { reportInterval: 600, alarmThreshold: { high: 30, low: 0 }, counter: "9007199254740993" },
  method: "tasks",
  taskIds: { [A]: "1", [B]: "2" },
};

describe("DeviceConfig diff", () => {
  it("sees no change when the inputs are those of the state, in any order and spelling", () => {
    const news = {
      deviceIds: [B, A],
      properties: {
        counter: "9007199254740993",
        alarmThreshold: { "alarmThreshold.high": 30, low: 0 },
        reportInterval: 600,
      },
    };
    expect(diffConfig(olds, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  it("updates in place when a value changes, naming properties", () => {
    const news = { deviceIds: [A, B], properties: { ...olds.properties, reportInterval: 900 } };
    expect(changedInputs(olds, news)).toEqual(["properties"]);
    expect(diffConfig(olds, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });

  it("sees a STRUCT child dropped from the program and a property removed", () => {
    expect(
      changedInputs(olds, { ...olds, properties: { ...olds.properties, alarmThreshold: { high: 30 } } }),
    ).toEqual(["properties"]);
    expect(changedInputs(olds, { ...olds, properties: { reportInterval: 600 } })).toEqual(["properties"]);
  });

  it("updates in place when the device set changes", () => {
    expect(changedInputs(olds, { ...olds, deviceIds: [A] })).toEqual(["deviceIds"]);
    expect(diffConfig(olds, { ...olds, deviceIds: [A] }).replaces).toEqual([]);
  });

  it("reports a change while device ids or values are unknown at preview", () => {
    expect(changedInputs(olds, { ...olds, deviceIds: UNKNOWN })).toEqual(["deviceIds"]);
    expect(changedInputs(olds, { ...olds, deviceIds: [UNKNOWN] })).toEqual(["deviceIds"]);
    expect(
      changedInputs(olds, { ...olds, properties: { ...olds.properties, reportInterval: UNKNOWN } }),
    ).toEqual(["properties"]);
  });

  it("updates in place for version and resetOnDelete", () => {
    expect(changedInputs(olds, { ...olds, version: "2" })).toEqual(["version"]);
    expect(changedInputs(olds, { ...olds, resetOnDelete: true })).toEqual(["resetOnDelete"]);
    expect(changedInputs({ ...olds, resetOnDelete: false }, olds)).toEqual([]);
  });

  it("replaces, deleting first, when switching from properties to profile", () => {
    const news = { deviceIds: [A, B], profile: { mode: "eco" } };
    expect(diffConfig(olds, news)).toEqual({
      changes: true,
      replaces: ["profile"],
      deleteBeforeReplace: true,
    });
  });
});
