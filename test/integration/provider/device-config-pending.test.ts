/**
 * A DeviceConfig's writes delivered exactly as declared, against a real emulator: a change whose
 * task call failed stays pending in state and the next `up` sends it (old task ids kept); a task
 * call whose answer was lost creates no second task when the platform shows it applied (TSL), and a
 * PROFILE call that may exist is never sent again until `version` changes. Request counts and tasks
 * per device come from the emulator's counters and control API.
 */
import { withLogSink } from "../../../provider/output/log";
import { beforeEach, describe, expect, it } from "vitest";
import type { Inputs } from "../../../provider/shared/input-checks";
import { PartialSuccessError } from "../../../provider/shared/errors";
import { deviceConfigImplementation as config } from "../../../provider/device-config/provider";
import { pendingOf } from "../../../provider/device-config/pending";
import { resetPropertyOwnership } from "../../../provider/guardrails/property-ownership";
import { forgetThingModels } from "../../../provider/tsl/models";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { useConfiguredEmulator } from "./support/configured-emulator";

// A 429 "refused for good" here is one the provider stops waiting out: rateLimitWait 0 fails at the
// first refusal (the default waits ten minutes, slowing the whole client meanwhile).
const env = useConfiguredEmulator({ taskDelayMs: 10 }, { rateLimitWait: "0" });

beforeEach(async () => {
  forgetThingModels();
  resetPropertyOwnership();
  await env.emulator.control.clearFaults();
  await env.emulator.control.holdTasks(false);
});

async function seed(count: number, model = "24"): Promise<string[]> {
  const devices = await Promise.all(
    serialNumbers(count, model).map((sn, i) => env.emulator.control.seedDevice({ sn, name: `pending-${i}` })),
  );
  return devices.map((d) => d.deviceId);
}

async function tasksOf(ids: readonly string[]) {
  return (await env.emulator.control.tasks()).filter((t) => ids.includes(t.deviceId));
}

/** Waits until every task of these devices has run (the emulator applies each after taskDelayMs). */
async function tasksRan(ids: readonly string[], count: number): Promise<void> {
  await expect
    .poll(async () => {
      const tasks = await tasksOf(ids);
      return tasks.length === count && tasks.every((t) => t.status !== "PENDING");
    })
    .toBe(true);
}

async function postsToTasks<T>(body: () => Promise<T>): Promise<{ result: T; posts: number }> {
  await env.emulator.control.resetCounters();
  const result = await body();
  const posts = (await env.emulator.control.counters()).byRoute["POST /tasks"] ?? 0;
  return { result, posts };
}

/** The next call of Create Configuration Tasks fails with `kind`. */
async function failNextTaskCall(kind: "500" | "reset-after" | "429"): Promise<void> {
  await env.emulator.control.setFaults({
    kinds: [kind],
    methods: ["POST"],
    pathIncludes: "/tasks",
    retryAfterSeconds: 0,
    ...(kind === "429" ? {} : { times: 1 }),
  });
}

async function partialOf(promise: Promise<unknown>): Promise<PartialSuccessError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PartialSuccessError);
  return error as PartialSuccessError;
}

describe("a change whose task call failed", () => {
  it("delivers a version bump lost to an HTTP 500 on the next up, keeping the old task ids meanwhile", async () => {
    const ids = await seed(2);
    const v1 = { deviceIds: ids, properties: { reportInterval: 900 }, version: "v1" };
    const created = await config.create(v1);
    await tasksRan(ids, 2);
    const v2 = { ...v1, version: "v2" };

    await failNextTaskCall("500");
    const partial = await partialOf(config.update(created.id, created.outs, v2));
    expect(partial.message).toMatch(/HTTP 500 .*may have created those tasks/);
    expect(partial.properties).toMatchObject({
      deviceIds: ids,
      version: "v2",
      taskIds: created.outs.taskIds,
    });
    const pending = pendingOf(partial.properties);
    expect(Object.keys(pending).sort()).toEqual([...ids].sort());
    // A version alone changes nothing Get Configuration shows.
    expect(pending[ids[0] as string]).toMatchObject({
      keys: ["reportInterval"],
      unknown: { visible: false },
    });
    expect((await config.diff(created.id, partial.properties, v2)).changes).toBe(true);
    await env.emulator.control.clearFaults();

    const next = await postsToTasks(() => config.update(created.id, partial.properties, v2));
    expect(next.posts).toBe(1);
    expect(next.result.outs?.pending).toBeUndefined();
    const v2Tasks = (await tasksOf(ids)).filter((t) => t.config.version === "v2");
    expect(v2Tasks.map((t) => t.deviceId).sort()).toEqual([...ids].sort());
    expect((await config.diff(created.id, next.result.outs ?? {}, v2)).changes).toBe(false);
  });

  it("refresh keeps what is owed to devices still there, with no undefined value for the host to send", async () => {
    const ids = await seed(2);
    const created = await config.create({ deviceIds: ids, properties: { reportInterval: 900 } });
    const inputs = { deviceIds: ids, properties: { reportInterval: 1200 } };
    await failNextTaskCall("429");
    const partial = await partialOf(config.update(created.id, created.outs, inputs));
    await env.emulator.control.clearFaults();
    const noUndefined = (props: Record<string, unknown> | undefined) =>
      Object.entries(props ?? {}).filter(([, value]) => value === undefined);
    const read = await config.read(partial.id, partial.properties);
    expect(Object.keys(pendingOf(read.props ?? {}))).toHaveLength(2);
    expect(noUndefined(read.props)).toEqual([]);
    const next = await config.update(partial.id, read.props ?? {}, inputs);
    const refreshed = await config.read(partial.id, next.outs ?? {});
    expect(refreshed.props?.pending).toBeUndefined();
    expect(noUndefined(refreshed.props)).toEqual([]);
    expect(noUndefined(refreshed.inputs)).toEqual([]);
  });

  it("sends a change refused for good (429 after every retry) on the next up", async () => {
    const ids = await seed(2);
    const inputs = { deviceIds: ids, properties: { reportInterval: 900 } };
    const created = await config.create(inputs);
    await tasksRan(ids, 2);
    const changed = { ...inputs, properties: { reportInterval: 1200 } };
    await failNextTaskCall("429");
    const partial = await partialOf(config.update(created.id, created.outs, changed));
    expect(Object.values(pendingOf(partial.properties))).toEqual([
      { keys: ["reportInterval"] },
      { keys: ["reportInterval"] },
    ]);
    await env.emulator.control.clearFaults();
    const next = await postsToTasks(() => config.update(created.id, partial.properties, changed));
    expect(next.posts).toBe(1);
    expect(next.result.outs?.pending).toBeUndefined();
    expect(await tasksOf(ids)).toHaveLength(4);
  });
});

describe("a task call whose answer was lost", () => {
  it("TSL: creates no second task once the devices show the values applied", async () => {
    const ids = await seed(3);
    const inputs: Inputs = { deviceIds: ids, properties: { reportInterval: 900 } };
    await failNextTaskCall("reset-after");
    const partial = await partialOf(config.create(inputs));
    expect(partial.message).toMatch(/got no answer: the platform may have created those tasks/);
    expect(pendingOf(partial.properties)[ids[0] as string]?.unknown?.visible).toBe(true);
    // The lost call did create the tasks; they apply after the emulator's task delay.
    await tasksRan(ids, 3);

    const next = await postsToTasks(() => config.update(partial.id, partial.properties, inputs));
    expect(next.posts).toBe(0);
    expect(next.result.outs?.pending).toBeUndefined();
    expect(await tasksOf(ids)).toHaveLength(3);
    expect((await config.diff(partial.id, next.result.outs ?? {}, inputs)).changes).toBe(false);
  });

  it("TSL: sends again, with a warning, a lost call whose tasks still wait on the platform (the documented limit)", async () => {
    const ids = await seed(2);
    const inputs: Inputs = { deviceIds: ids, properties: { reportInterval: 900 } };
    await env.emulator.control.holdTasks(true); // the devices are offline: their tasks stay PENDING
    try {
      await failNextTaskCall("reset-after");
      const partial = await partialOf(config.create(inputs));
      await env.emulator.control.clearFaults();
      const warnings: string[] = [];
      const sink = {
        info: async () => undefined,
        status: async () => undefined,
        warn: async (message: string) => void warnings.push(message),
      };
      const next = await postsToTasks(() =>
        withLogSink(sink, () => config.update(partial.id, partial.properties, inputs)),
      );
      expect(next.posts).toBe(1);
      expect(next.result.outs?.pending).toBeUndefined();
      // docs/guides/resources.md's "sends again, with a warning": the warning names the devices and the risk.
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/got no answer .* sending it again\. .*the same values twice/s);
      for (const id of ids) expect(warnings[0]).toContain(id);
    } finally {
      await env.emulator.control.holdTasks(false);
    }
    await tasksRan(ids, 4);
    for (const id of ids) {
      const device = (await env.emulator.control.state()).devices.find((d) => d.deviceId === id);
      expect(device?.properties.reportInterval).toBe(900);
    }
  });

  it("TSL: sends a version-only change again, since no read can show it (the documented limit)", async () => {
    const ids = await seed(2);
    const v1 = { deviceIds: ids, properties: { reportInterval: 900 }, version: "v1" };
    const created = await config.create(v1);
    await tasksRan(ids, 2);
    const v2 = { ...v1, version: "v2" };
    await failNextTaskCall("reset-after");
    const partial = await partialOf(config.update(created.id, created.outs, v2));
    await tasksRan(ids, 4);
    const next = await postsToTasks(() => config.update(created.id, partial.properties, v2));
    expect(next.posts).toBe(1);
    expect((await tasksOf(ids)).filter((t) => t.config.version === "v2")).toHaveLength(4);
  });

  it("PROFILE: never sends it again by itself; a new version sends it", async () => {
    const ids = await seed(2, "AC");
    const inputs = { deviceIds: ids, profile: { ecoMode: true }, version: "p1" };
    await failNextTaskCall("reset-after");
    const partial = await partialOf(config.create(inputs));
    expect(partial.message).toMatch(/PROFILE task call .* only by webhook, so it is not sent again/);
    expect(partial.message).toMatch(/change `version`/);
    await tasksRan(ids, 2);

    const held = await postsToTasks(() => partialOf(config.update(partial.id, partial.properties, inputs)));
    expect(held.posts).toBe(0);
    expect(held.result.message).toMatch(
      /PROFILE task call made at .* \(POST \/device\/openapi\/v1\/tasks: .*\) for 2 device\(s\).*change `version` \(e\.g\. to "p1-resend"\)/,
    );
    expect(Object.keys(pendingOf(held.result.properties))).toHaveLength(2);
    expect(await tasksOf(ids)).toHaveLength(2);

    const resend = { ...inputs, version: "p2" };
    const sent = await postsToTasks(() => config.update(partial.id, held.result.properties, resend));
    expect(sent.posts).toBe(1);
    expect(sent.result.outs?.pending).toBeUndefined();
    expect(await tasksOf(ids)).toHaveLength(4);
  });
});

describe("resetOnDelete with one owner per property", () => {
  it("a rename without alias: the old resource's delete writes no default", async () => {
    const [id] = (await seed(1)) as [string];
    const inputs = { deviceIds: [id], properties: { reportInterval: 900 }, resetOnDelete: true };
    const old = await config.create(inputs);
    resetPropertyOwnership(); // the next deployment: the program names the same config differently
    await config.check({}, inputs);
    await env.emulator.control.resetCounters();
    await config.create(inputs);
    await config.delete(old.id, old.outs);
    const { byRoute } = await env.emulator.control.counters();
    expect(byRoute["PATCH /devices/{deviceId}/properties"]).toBeUndefined();
    expect(byRoute["POST /tasks"]).toBeUndefined();
    const device = (await env.emulator.control.state()).devices.find((d) => d.deviceId === id);
    expect(device?.properties.reportInterval).toBe(900);
  });

  it("a split: only what no other config declares is reset", async () => {
    const ids = await seed(2);
    const [a, b] = ids as [string, string];
    const whole = {
      deviceIds: ids,
      properties: { reportInterval: 900, ledEnabled: false },
      resetOnDelete: true,
    };
    const old = await config.create(whole);
    await tasksRan(ids, 2);
    resetPropertyOwnership();
    await config.check({}, { deviceIds: [a], properties: { reportInterval: 900 }, resetOnDelete: true });
    await config.check({}, { deviceIds: [b], properties: whole.properties, resetOnDelete: true });
    await env.emulator.control.resetCounters();
    await config.delete(old.id, old.outs);
    expect((await env.emulator.control.counters()).byRoute["POST /tasks"]).toBe(1);
    const resets = (await tasksOf(ids)).slice(2);
    expect(resets.map((t) => [t.deviceId, t.config.properties])).toEqual([[a, { ledEnabled: true }]]);
  });

  it("an update that stops managing a property another config now declares leaves it", async () => {
    const [id] = (await seed(1)) as [string];
    const both = {
      deviceIds: [id],
      properties: { reportInterval: 900, ledEnabled: false },
      resetOnDelete: true,
    };
    const created = await config.create(both);
    resetPropertyOwnership();
    await config.check({}, { deviceIds: [id], properties: { ledEnabled: false } });
    const narrowed = { ...both, properties: { reportInterval: 900 } };
    await env.emulator.control.resetCounters();
    await config.update(created.id, created.outs, narrowed);
    expect(
      (await env.emulator.control.counters()).byRoute["PATCH /devices/{deviceId}/properties"],
    ).toBeUndefined();
    const device = (await env.emulator.control.state()).devices.find((d) => d.deviceId === id);
    expect(device?.properties.ledEnabled).toBe(false);
  });
});
