/**
 * Work a DeviceConfig's platform has not confirmed: how a failed or lost task call is recorded in
 * state (`pending`, old task ids kept), how an earlier release's state loads, why `diff` then
 * reports a change, what the next `up` sends again or holds back, and which resets the one-owner
 * record leaves to another DeviceConfig.
 */
import { describe, expect, it } from "vitest";
import type { NotApplied, WriteOutcome } from "../../../provider/device-config/apply";
import { diffConfig } from "../../../provider/device-config/changes";
import { pendingOf, resolvePending, type PendingWork } from "../../../provider/device-config/pending";
import { planUpdate } from "../../../provider/device-config/plan";
import { stateAfterWrites } from "../../../provider/device-config/state";
import {
  declareProperties,
  resetPropertyOwnership,
  resetsOfOthers,
  skippedResetMessages,
} from "../../../provider/guardrails/property-ownership";
import { MODEL } from "./tsl-fixtures";

const A = "9007199254741001";
const B = "9007199254741002";
const modelOf = () => MODEL;

function missed(
  deviceId: string,
  keys: string[],
  unknown: boolean,
  type: "TSL" | "PROFILE" = "TSL",
): NotApplied {
  return { deviceId, keys, purpose: "apply", type, unknown };
}

function outcome(partial: Partial<WriteOutcome> = {}): WriteOutcome {
  return { applied: new Map(), taskIds: {}, notApplied: [], ...partial };
}

const v1 = { deviceIds: [A, B], properties: { reportInterval: 900 }, version: "v1", resetOnDelete: false };
const v2 = { ...v1, version: "v2" };
const v1Outputs = { ...v1, method: "tasks", taskIds: { [A]: "11", [B]: "12" } };

describe("the state after a task call that failed", () => {
  it("keeps the declaration, the old task ids, and what each device is still owed", () => {
    const outs = stateAfterWrites(
      v2,
      v2,
      { config: v1, outputs: v1Outputs },
      outcome({
        error: new Error("429"),
        notApplied: [missed(A, ["reportInterval"], false), missed(B, ["reportInterval"], false)],
      }),
    );
    expect(outs).toEqual({
      ...v2,
      method: "tasks",
      taskIds: { [A]: "11", [B]: "12" },
      pending: { [A]: { keys: ["reportInterval"] }, [B]: { keys: ["reportInterval"] } },
    });
  });

  it("marks a lost call, visible only where it changes a value the device showed", () => {
    const current = new Map([
      [A, { reportInterval: 900 }],
      [B, { reportInterval: 600 }],
    ]);
    const at = new Date("2026-11-23T08:00:00Z");
    const outs = stateAfterWrites(
      v2,
      v2,
      { config: v1, outputs: v1Outputs },
      outcome({
        error: new Error("reset"),
        notApplied: [missed(A, ["reportInterval"], true), missed(B, ["reportInterval"], true)],
      }),
      { current, at },
    );
    const pending = pendingOf(outs);
    expect(pending[A]).toEqual({
      keys: ["reportInterval"],
      unknown: { since: at.toISOString(), detail: "reset", visible: false },
    });
    expect(pending[B]?.unknown?.visible).toBe(true);
  });

  it("records nothing pending when every device got its task", () => {
    const outs = stateAfterWrites(
      v2,
      v2,
      { config: v1, outputs: v1Outputs },
      outcome({ taskIds: { [A]: "21", [B]: "22" } }),
    );
    expect(outs.pending).toBeUndefined();
    expect(outs.taskIds).toEqual({ [A]: "21", [B]: "22" });
  });
});

describe("a state with pending work", () => {
  it("loads a state an earlier release recorded (no pending) as nothing pending, and tolerates junk", () => {
    expect(pendingOf(v1Outputs)).toEqual({});
    expect(pendingOf({ pending: { [A]: { keys: "x" }, [B]: 3 } })).toEqual({});
  });

  it("differs from the same declaration, so preview shows it and up sends it", () => {
    expect(diffConfig(v1Outputs, v1).changes).toBe(false);
    expect(diffConfig({ ...v1Outputs, pending: { [A]: { keys: ["reportInterval"] } } }, v1).changes).toBe(
      true,
    );
  });
});

describe("what the next up does with pending work", () => {
  const context = {
    deviceIds: [A, B],
    keys: ["reportInterval"],
    type: "TSL" as const,
    sentValues: { reportInterval: 900 },
    superseded: false,
  };
  const lost = (visible: boolean) => ({ since: "t", detail: "HTTP 500", visible });

  it("sends again what was definitely not performed, and drops what is no longer declared", () => {
    const pending: PendingWork = {
      [A]: { keys: ["reportInterval", "gone"] },
      "999": { keys: ["reportInterval"] },
    };
    const resolution = resolvePending(pending, context, undefined);
    expect([...resolution.resend]).toEqual([[A, ["reportInterval"]]]);
  });

  it("TSL: confirms a lost call the device shows applied; sends again one it does not show", () => {
    const pending: PendingWork = {
      [A]: { keys: ["reportInterval"], unknown: lost(true) },
      [B]: { keys: ["reportInterval"], unknown: lost(true) },
    };
    const current = new Map([
      [A, { reportInterval: 900 }],
      [B, { reportInterval: 600 }],
    ]);
    const resolution = resolvePending(pending, context, current);
    expect(resolution.confirmed).toEqual([A]);
    expect(resolution.resentAfterUnknown).toEqual([B]);
    expect([...resolution.resend.keys()]).toEqual([B]);
  });

  it("TSL: sends again a lost version-only change, which no read can show", () => {
    const pending: PendingWork = { [A]: { keys: ["reportInterval"], unknown: lost(false) } };
    const resolution = resolvePending(pending, context, new Map([[A, { reportInterval: 900 }]]));
    expect(resolution.resentAfterUnknown).toEqual([A]);
  });

  it("PROFILE: holds a lost call back until the declaration changes", () => {
    const profile = { ...context, type: "PROFILE" as const, keys: ["ecoMode"] };
    const pending: PendingWork = { [A]: { keys: ["ecoMode"], unknown: lost(false) } };
    expect(Object.keys(resolvePending(pending, profile, undefined).held)).toEqual([A]);
    const superseded = resolvePending(pending, { ...profile, superseded: true }, undefined);
    expect(superseded.held).toEqual({});
    expect(superseded.resend.size).toBe(0);
  });

  it("sends owed keys under a version even when the device shows the values; without a version, only what it lacks", () => {
    const current = new Map([[A, { reportInterval: 900 }]]);
    const resend = new Map([[A, ["reportInterval"]]]);
    const withVersion = planUpdate({ ...v2, deviceIds: [A] }, { ...v2, deviceIds: [A] }, modelOf, {
      current,
      resend,
    });
    expect(withVersion.map((w) => [w.deviceIds, w.values, w.version])).toEqual([
      [[A], { reportInterval: 900 }, "v2"],
    ]);
    const plain = { deviceIds: [A], properties: { reportInterval: 900 }, resetOnDelete: false };
    expect(planUpdate(plain, plain, modelOf, { current, resend })).toEqual([]);
  });

  it("sends a PROFILE to devices owed it, but not to those held back", () => {
    const profile = { deviceIds: [A, B], profile: { ecoMode: true }, version: "p1", resetOnDelete: false };
    const writes = planUpdate(profile, profile, modelOf, {
      resend: new Map([
        [A, ["ecoMode"]],
        [B, ["ecoMode"]],
      ]),
      held: new Set([B]),
    });
    expect(writes.map((w) => w.deviceIds)).toEqual([[A]]);
  });
});

describe("one owner per managed property", () => {
  it("leaves to another DeviceConfig the resets of what it declares, and names it", () => {
    resetPropertyOwnership();
    declareProperties({ id: A, deviceIds: [A] }, [A], ["reportInterval"]);
    const { mayReset, skipped } = resetsOfOthers([
      { deviceId: A, key: "reportInterval" },
      { deviceId: A, key: "ledEnabled" },
      { deviceId: B, key: "reportInterval" },
    ]);
    expect([mayReset(A, "reportInterval"), mayReset(A, "ledEnabled"), mayReset(B, "reportInterval")]).toEqual(
      [false, true, true],
    );
    expect(skippedResetMessages("DeviceConfig X", skipped)).toEqual([
      `DeviceConfig X: resetOnDelete leaves reportInterval of device(s) ${A} as they are: the DeviceConfig ` +
        `with id ${A} (deviceIds ${A}) in this deployment manages them now (a rename, split or merge)`,
    ]);
  });

  it("keeps an update's reset of a released property out of the plan when another config declares it", () => {
    const had = {
      deviceIds: [A],
      properties: { reportInterval: 900, ledEnabled: false },
      resetOnDelete: true,
    };
    const want = { ...had, properties: { reportInterval: 900 } };
    expect(planUpdate(had, want, modelOf).map((w) => w.values)).toEqual([{ ledEnabled: true }]);
    expect(planUpdate(had, want, modelOf, { mayReset: (_d, key) => key !== "ledEnabled" })).toEqual([]);
  });
});
