/**
 * What a DeviceConfig keeps in state: never more than the platform applied (a partial PATCH, devices
 * without a task), and what a refresh finds when devices drift.
 */
import { describe, expect, it } from "vitest";
import { missingPaths, type WriteOutcome } from "../../../provider/device-config/apply";
import { compareReports } from "../../../provider/device-config/read";
import { stateAfterWrites } from "../../../provider/device-config/state";
import { sameValue } from "../../../provider/tsl/compare";

const A = "9007199254741001";
const B = "9007199254741002";

function outcome(partial: Partial<WriteOutcome> = {}): WriteOutcome {
  return { applied: new Map(), taskIds: {}, notApplied: [], ...partial };
}

describe("a PATCH taken in part", () => {
  it("finds what the response leaves out, STRUCT children included", () => {
    const sent = { a: 1, b: 2, s: { "s.x": 1, "s.y": 2 } };
    expect(missingPaths(sent, { a: 1, s: { "s.x": 1 } })).toEqual(["b", "s.y"]);
  });

  it("keeps only what was applied on create", () => {
    const want = { deviceIds: [A], properties: { a: 1, b: 2, s: { x: 1, y: 2 } }, resetOnDelete: false };
    const outs = stateAfterWrites(
      { deviceIds: want.deviceIds, properties: want.properties },
      want,
      undefined,
      outcome({
        notApplied: [{ deviceId: A, keys: ["b", "s.y"], purpose: "apply", type: "TSL", unknown: false }],
      }),
    );
    expect(outs).toEqual({ deviceIds: [A], properties: { a: 1, s: { x: 1 } }, method: "patch", taskIds: {} });
  });

  it("keeps the previous value of a property not applied on update", () => {
    const had = { deviceIds: [A], properties: { a: 1, b: 2 }, resetOnDelete: false };
    const want = { deviceIds: [A], properties: { a: 5, b: 6 }, resetOnDelete: false };
    const outs = stateAfterWrites(
      want,
      want,
      { config: had, outputs: { ...had, taskIds: {} } },
      outcome({ notApplied: [{ deviceId: A, keys: ["b"], purpose: "apply", type: "TSL", unknown: false }] }),
    );
    expect(outs.properties).toEqual({ a: 5, b: 2 });
  });
});

describe("configuration tasks", () => {
  it("records task ids, and what a device that got no task is still owed", () => {
    const want = { deviceIds: [A, B], properties: { a: 1 }, resetOnDelete: false };
    const outs = stateAfterWrites(
      { deviceIds: want.deviceIds, properties: want.properties },
      want,
      undefined,
      outcome({
        taskIds: { [A]: "77" },
        notApplied: [{ deviceId: B, keys: ["a"], purpose: "apply", type: "TSL", unknown: false }],
      }),
    );
    expect(outs).toEqual({
      deviceIds: [A, B],
      properties: { a: 1 },
      method: "tasks",
      taskIds: { [A]: "77" },
      pending: { [B]: { keys: ["a"] } },
    });
  });
});

describe("comparison with the platform's configuration", () => {
  it("matches the platform's shapes: full child ids, lossless digits, ENUM numbers", () => {
    expect(
      sameValue({ high: 30 }, { "alarmThreshold.high": 30, "alarmThreshold.low": 0 }, "alarmThreshold"),
    ).toBe(true);
    expect(sameValue("9007199254740993", "9007199254740993", "counter")).toBe(true);
    expect(sameValue("1", 1, "temperatureUnit")).toBe(true);
    expect(sameValue([1, 2], [1, 2, 3], "schedule")).toBe(false);
    expect(sameValue(true, "true", "ledEnabled")).toBe(false);
  });

  it("reports drift from the first device that differs, in the user's shape", () => {
    const managed = { reportInterval: 600, alarmThreshold: { high: 30 }, label: "x" };
    const reports = new Map([
      [
        A,
        {
          reportInterval: 600,
          alarmThreshold: { "alarmThreshold.high": 30, "alarmThreshold.low": 0 },
          label: "x",
        },
      ],
      [B, { reportInterval: 900, alarmThreshold: { "alarmThreshold.high": 35 } }],
    ]);
    const { properties, drifted } = compareReports(managed, [A, B], reports);
    expect(properties).toEqual({ reportInterval: 900, alarmThreshold: { high: 35 } });
    expect(Object.fromEntries(drifted)).toEqual({ reportInterval: [B], alarmThreshold: [B], label: [B] });
  });
});
