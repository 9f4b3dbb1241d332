/**
 * What a DeviceConfig writes: values in the platform's shape (full STRUCT child ids, exact LONGs,
 * ENUM keys as numbers), TSL defaults, and the writes of create, update and reset grouped by payload.
 */
import { describe, expect, it } from "vitest";
import { stringifyLosslessJson } from "../../../sdk";
import type { DesiredConfig } from "../../../provider/device-config/inputs";
import {
  planCreate,
  planReset,
  planUpdate,
  propertiesWithoutDefault,
} from "../../../provider/device-config/plan";
import { toWire } from "../../../provider/tsl/wire";
import { MODEL } from "./tsl-fixtures";

const A = "9007199254741001";
const B = "9007199254741002";
const C = "9007199254741003";
const modelOf = () => MODEL;

function config(
  deviceIds: string[],
  properties: Record<string, unknown>,
  extra: Partial<DesiredConfig> = {},
) {
  return { deviceIds, properties, resetOnDelete: false, ...extra };
}

describe("values on the wire", () => {
  it("sends STRUCT children by full id, LONG digits as exact numbers, ENUM keys as numbers", () => {
    const wire = toWire(
      {
        alarmThreshold: { high: 30, "alarmThreshold.low": 0 },
        counter: "9223372036854775807",
        heartbeat: "60",
        temperatureUnit: "1",
      },
      MODEL,
    );
    expect(stringifyLosslessJson(wire)).toBe(
      '{"alarmThreshold":{"alarmThreshold.high":30,"alarmThreshold.low":0},' +
        '"counter":9223372036854775807,"heartbeat":60,"temperatureUnit":1}',
    );
  });
});

describe("the writes of a create", () => {
  it("writes every property to every device in one write", () => {
    const writes = planCreate(config([A, B, C], { reportInterval: 600 }, { version: "7" }), modelOf);
    expect(writes).toEqual([
      { deviceIds: [A, B, C], type: "TSL", values: { reportInterval: 600 }, version: "7", purpose: "apply" },
    ]);
  });

  it("writes a profile as one PROFILE write", () => {
    const writes = planCreate({ deviceIds: [A], profile: { mode: "eco" }, resetOnDelete: false }, modelOf);
    expect(writes).toEqual([{ deviceIds: [A], type: "PROFILE", values: { mode: "eco" }, purpose: "apply" }]);
  });
});

describe("the writes of an update", () => {
  const had = config(
    [A, B],
    { reportInterval: 600, ledEnabled: true, label: "old" },
    { resetOnDelete: true },
  );

  it("writes only what changed to devices that stay, everything to devices added", () => {
    const want = config([A, C], { reportInterval: 900, ledEnabled: true, label: "old" });
    const writes = planUpdate({ ...had, resetOnDelete: false }, want, modelOf);
    expect(writes).toEqual([
      { deviceIds: [A], type: "TSL", values: { reportInterval: 900 }, purpose: "apply" },
      {
        deviceIds: [C],
        type: "TSL",
        values: { reportInterval: 900, ledEnabled: true, label: "old" },
        purpose: "apply",
      },
    ]);
  });

  it("with resetOnDelete, restores defaults of dropped properties and of devices left out", () => {
    const want = config([A], { reportInterval: 600, ledEnabled: true });
    const writes = planUpdate(had, want, modelOf);
    expect(writes).toEqual([
      { deviceIds: [A], type: "TSL", values: { label: "sensor" }, purpose: "apply" },
      {
        deviceIds: [B],
        type: "TSL",
        values: { reportInterval: 600, ledEnabled: true, label: "sensor" },
        purpose: "reset",
      },
    ]);
  });

  it("writes nothing when only resetOnDelete changed", () => {
    expect(planUpdate(had, { ...had, resetOnDelete: false }, modelOf)).toEqual([]);
  });

  it("writes every property again when the task version changed", () => {
    const writes = planUpdate(
      { ...had, resetOnDelete: false },
      { ...had, version: "2", resetOnDelete: false },
      modelOf,
    );
    expect(writes).toHaveLength(1);
    expect(writes[0]?.values).toEqual({ reportInterval: 600, ledEnabled: true, label: "old" });
  });

  it("sends the version to the device that had it by PATCH when a second device makes it tasks", () => {
    // One device: a PATCH, which carries no version. Two: tasks, each with the version.
    const one = config([A], { reportInterval: 600 }, { version: "1" });
    const current = new Map([
      [A, { reportInterval: 600 }],
      [B, { reportInterval: 600 }],
    ]);
    const writes = planUpdate(one, { ...one, deviceIds: [A, B] }, modelOf, { current });
    // B shows the values too, but not the version: no read can show one, so it gets the task as well.
    expect(writes).toEqual([
      { deviceIds: [A, B], type: "TSL", values: { reportInterval: 600 }, version: "1", purpose: "apply" },
    ]);
  });

  it("sends the version to a device added to a versioned configuration that already shows the values", () => {
    // Found by the random-operations harness (seed 31002, step 28): a device configured by a
    // one-device configuration (a PATCH) moved into a versioned one of several and got no task.
    const had = config([A, B], { reportInterval: 600 }, { version: "1" });
    const current = new Map([[C, { reportInterval: 600 }]]);
    expect(planUpdate(had, { ...had, deviceIds: [A, B, C] }, modelOf, { current })).toEqual([
      { deviceIds: [C], type: "TSL", values: { reportInterval: 600 }, version: "1", purpose: "apply" },
    ]);
    expect(planCreate({ ...had, deviceIds: [A, C] }, modelOf, current)).toEqual([
      { deviceIds: [A, C], type: "TSL", values: { reportInterval: 600 }, version: "1", purpose: "apply" },
    ]);
  });

  it("leaves out what a device added to an unversioned configuration, or to a versioned PATCH, already shows", () => {
    const current = new Map([[C, { reportInterval: 600 }]]);
    const had = config([A, B], { reportInterval: 600 });
    expect(planUpdate(had, { ...had, deviceIds: [A, B, C] }, modelOf, { current })).toEqual([]);
    expect(planCreate(config([C], { reportInterval: 600 }, { version: "1" }), modelOf, current)).toEqual([]);
  });
});

describe("the writes of a reset", () => {
  it("writes each managed property's TSL default, typed, STRUCTs by full child id", () => {
    const had = config([A, B], {
      reportInterval: 1,
      temperatureUnit: 1,
      ledEnabled: false,
      alarmThreshold: { high: 1, low: 0 },
      schedule: [1],
      counter: "1",
      setpoint: 30,
      token: "aGk=",
    });
    const [write] = planReset(had, modelOf);
    expect(write?.deviceIds).toEqual([A, B]);
    expect(write?.purpose).toBe("reset");
    expect(stringifyLosslessJson(write?.values)).toBe(
      '{"reportInterval":600,"temperatureUnit":0,"ledEnabled":true,' +
        '"alarmThreshold":{"alarmThreshold.high":30,"alarmThreshold.low":0},"schedule":[360,1320],' +
        '"counter":9007199254740993,"setpoint":21.5,"token":""}',
    );
  });

  it("names managed properties that have no default, and leaves them out", () => {
    const had = config([A], { gain: 1, reportInterval: 61 });
    expect(propertiesWithoutDefault(had, modelOf)).toEqual(["gain"]);
    expect(planReset(had, modelOf)[0]?.values).toEqual({ reportInterval: 600 });
  });
});

describe("values a device already has are not written again", () => {
  const wanted = { reportInterval: 900, alarmThreshold: { high: 30 } };

  it("drops, per device, what its current configuration already holds (STRUCT children as the user gave them)", () => {
    const current = new Map([
      [A, { reportInterval: 900, alarmThreshold: { "alarmThreshold.high": 30, "alarmThreshold.low": 5 } }],
      [B, { reportInterval: 900, alarmThreshold: { "alarmThreshold.high": 28 } }],
    ]);
    const writes = planCreate(config([A, B, C], wanted), modelOf, current);
    expect(writes.map((w) => [w.deviceIds, Object.keys(w.values)])).toEqual([
      [[B], ["alarmThreshold"]],
      [[C], ["reportInterval", "alarmThreshold"]],
    ]);
  });

  it("applies to devices added to the set and to devices that stay, unless there is a config version", () => {
    const current = new Map([
      [A, { reportInterval: 900, alarmThreshold: { "alarmThreshold.high": 30 } }],
      [B, { reportInterval: 900, alarmThreshold: { "alarmThreshold.high": 30 } }],
    ]);
    const had = config([A], { reportInterval: 600 });
    expect(planUpdate(had, config([A, B], wanted), modelOf, { current })).toEqual([]);
    const bumped = planUpdate(had, config([A, B], wanted, { version: "2" }), modelOf, { current });
    // A version shows on no device: both get it, B although it has the values.
    expect(bumped.map((w) => w.deviceIds)).toEqual([[A, B]]);
  });
});
