/**
 * A DeviceConfig of 1,010 devices — three task calls of 500, 500 and 10 — whose second call's
 * answer is lost, against the emulator: the devices of that call are recorded as `unknown` (the
 * platform may have created their tasks) and are never sent again blindly, while the third call's
 * devices, never sent, are recorded as owed and sent by the next `up`. Request counts come from
 * the emulator's counters, tasks per device from its control API.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { deviceConfigImplementation as config } from "../../../provider/device-config/provider";
import { pendingOf } from "../../../provider/device-config/pending";
import { resetPropertyOwnership } from "../../../provider/guardrails/property-ownership";
import { PartialSuccessError } from "../../../provider/shared/errors";
import type { Inputs } from "../../../provider/shared/input-checks";
import { forgetThingModels } from "../../../provider/tsl/models";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { useConfiguredEmulator } from "./support/configured-emulator";

const env = useConfiguredEmulator({ taskDelayMs: 10 });
const DEVICES = 1_010;
const TASKS = "POST /tasks";
const GET_CONFIG = "GET /devices/{deviceId}/config";

beforeEach(async () => {
  await env.emulator.control.reset({ keepTokens: true });
  forgetThingModels();
  resetPropertyOwnership();
});

/** Seeds the devices; returns their ids split as the SDK sends them: 500, 500 and 10. */
async function seedChunks(model: string) {
  const { devices } = await env.emulator.control.seed({
    devices: serialNumbers(DEVICES, model).map((sn, i) => ({ sn, name: `chunk-${i}` })),
  });
  const ids = devices.map((d) => d.deviceId);
  return { ids, chunk1: ids.slice(0, 500), chunk2: ids.slice(500, 1_000), chunk3: ids.slice(1_000) };
}

/** The second task call fails with `kind`; the first and any later ones are served. */
async function loseSecondTaskCall(kind: "reset-after" | "500"): Promise<void> {
  await env.emulator.control.setFaults({
    kinds: [kind],
    methods: ["POST"],
    pathIncludes: "/tasks",
    after: 1,
    times: 1,
  });
}

/** Runs `body` with fresh counters: what it returns, and its requests by route. */
async function counted<T>(body: () => Promise<T>): Promise<{ result: T; byRoute: Record<string, number> }> {
  await env.emulator.control.resetCounters();
  const result = await body();
  return { result, byRoute: (await env.emulator.control.counters()).byRoute };
}

async function partialOf(promise: Promise<unknown>): Promise<PartialSuccessError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PartialSuccessError);
  return error as PartialSuccessError;
}

/** deviceId → how many tasks it has. */
async function tasksPerDevice(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const task of await env.emulator.control.tasks()) {
    counts.set(task.deviceId, (counts.get(task.deviceId) ?? 0) + 1);
  }
  return counts;
}

/** Devices whose pending entry is `unknown`, and those owed without doubt. */
function pendingSplit(outs: Inputs) {
  const pending = Object.entries(pendingOf(outs));
  return {
    unknown: pending.filter(([, entry]) => entry.unknown !== undefined).map(([deviceId]) => deviceId),
    owed: pending.filter(([, entry]) => entry.unknown === undefined).map(([deviceId]) => deviceId),
  };
}

const sorted = (ids: readonly string[]) => [...ids].sort();

describe("a configuration of 1,010 devices whose second task call's answer is lost", () => {
  it("TSL: the lost call's 500 devices are unknown and, showing the values, get no second task; the third call's 10 are sent", async () => {
    const { ids, chunk1, chunk2, chunk3 } = await seedChunks("24");
    const inputs: Inputs = { deviceIds: ids, properties: { reportInterval: 900 } };
    await loseSecondTaskCall("reset-after");
    const first = await counted(() => partialOf(config.create(inputs)));
    // 1,010 reads of what the devices show, then chunk 1 (answered) and chunk 2 (lost): no third call.
    expect(first.byRoute[GET_CONFIG]).toBe(DEVICES);
    expect(first.byRoute[TASKS]).toBe(2);
    const partial = first.result;
    expect(sorted(Object.keys(partial.properties.taskIds as Record<string, string>))).toEqual(sorted(chunk1));
    const split = pendingSplit(partial.properties);
    expect(sorted(split.unknown)).toEqual(sorted(chunk2));
    expect(sorted(split.owed)).toEqual(sorted(chunk3));
    await env.emulator.control.clearFaults();
    // The lost call did create its tasks; they apply after the emulator's task delay.
    await expect
      .poll(async () => (await env.emulator.control.tasks()).every((t) => t.status !== "PENDING"))
      .toBe(true);

    const next = await counted(() => config.update(partial.id, partial.properties, inputs));
    // The 510 pending devices read; one task call, for the 10 never sent.
    expect(next.byRoute[GET_CONFIG]).toBe(510);
    expect(next.byRoute[TASKS]).toBe(1);
    expect(next.result.outs?.pending).toBeUndefined();
    const perDevice = await tasksPerDevice();
    expect(perDevice.size).toBe(DEVICES);
    expect([...perDevice.values()].every((count) => count === 1)).toBe(true);
  });

  it("PROFILE: the lost call's 500 devices are held, never sent again by themselves; the third call's 10 are sent", async () => {
    const { ids, chunk1, chunk2, chunk3 } = await seedChunks("AC");
    const inputs: Inputs = { deviceIds: ids, profile: { ecoMode: true }, version: "p1" };
    // An HTTP 500: the emulator did not create the tasks, but the client cannot know that.
    await loseSecondTaskCall("500");
    const first = await counted(() => partialOf(config.create(inputs)));
    expect(first.byRoute[TASKS]).toBe(2);
    const partial = first.result;
    const split = pendingSplit(partial.properties);
    expect(sorted(split.unknown)).toEqual(sorted(chunk2));
    expect(sorted(split.owed)).toEqual(sorted(chunk3));
    await env.emulator.control.clearFaults();

    const held = await counted(() => partialOf(config.update(partial.id, partial.properties, inputs)));
    expect(held.byRoute[TASKS]).toBe(1);
    expect(held.result.message).toMatch(/PROFILE task call made at .* for 500 device\(s\)/);
    expect(sorted(Object.keys(pendingOf(held.result.properties)))).toEqual(sorted(chunk2));
    const perDevice = await tasksPerDevice();
    expect(sorted([...perDevice.keys()])).toEqual(sorted([...chunk1, ...chunk3]));
    expect([...perDevice.values()].every((count) => count === 1)).toBe(true);

    const again = await counted(() => partialOf(config.update(partial.id, held.result.properties, inputs)));
    expect(again.byRoute[TASKS]).toBeUndefined();
    expect(again.byRoute).toEqual({});
  });
});
