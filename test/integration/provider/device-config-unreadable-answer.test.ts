/**
 * A Create Configuration Tasks call the platform performed but whose answer came back unreadable
 * (HTTP 200 with an empty body, from a proxy that lost it: the emulator's `empty-after` fault). The
 * create records the tasks as possibly made, says the answer could not be read (not that the base
 * URL is wrong), and the next `up` sends no PROFILE task again. Task counts come from the emulator's
 * control API, request counts from its counters.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { PartialSuccessError } from "../../../provider/shared/errors";
import { deviceConfigImplementation as config } from "../../../provider/device-config/provider";
import { pendingOf } from "../../../provider/device-config/pending";
import { resetPropertyOwnership } from "../../../provider/guardrails/property-ownership";
import { forgetThingModels } from "../../../provider/tsl/models";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { useConfiguredEmulator } from "./support/configured-emulator";

const env = useConfiguredEmulator({ taskDelayMs: 10 }, { rateLimitWait: "0" });

beforeEach(async () => {
  forgetThingModels();
  resetPropertyOwnership();
  await env.emulator.control.clearFaults();
});

async function seed(count: number, model: string): Promise<string[]> {
  const devices = await Promise.all(
    serialNumbers(count, model).map((sn, i) =>
      env.emulator.control.seedDevice({ sn, name: `unreadable-${i}` }),
    ),
  );
  return devices.map((d) => d.deviceId);
}

async function tasksOf(ids: readonly string[]) {
  return (await env.emulator.control.tasks()).filter((t) => ids.includes(t.deviceId));
}

async function postsToTasks<T>(body: () => Promise<T>): Promise<{ result: T; posts: number }> {
  await env.emulator.control.resetCounters();
  const result = await body();
  const posts = (await env.emulator.control.counters()).byRoute["POST /tasks"] ?? 0;
  return { result, posts };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe("a task call answered HTTP 200 with an empty body", () => {
  it("PROFILE: recorded as possibly made, and the next up sends 0 tasks again", async () => {
    const ids = await seed(3, "AC");
    const inputs = { deviceIds: ids, profile: { ecoMode: true }, version: "p1" };
    await env.emulator.control.setFaults({
      kinds: ["empty-after"],
      methods: ["POST"],
      pathIncludes: "/tasks",
      times: 1,
    });
    const created = await postsToTasks(() => failure(config.create(inputs)));
    expect(created.posts).toBe(1);
    expect(await tasksOf(ids)).toHaveLength(3);
    const partial = created.result as PartialSuccessError;
    expect(partial).toBeInstanceOf(PartialSuccessError);
    expect(partial.message).toContain("the platform's answer could not be read (empty body)");
    expect(partial.message).not.toContain("does not look like");
    expect(partial.message).toMatch(/PROFILE task call .* only by webhook, so it is not sent again/);
    expect(Object.keys(pendingOf(partial.properties)).sort()).toEqual([...ids].sort());
    await env.emulator.control.clearFaults();

    const next = await postsToTasks(() => failure(config.update(partial.id, partial.properties, inputs)));
    expect(next.posts).toBe(0);
    expect(await tasksOf(ids)).toHaveLength(3);
  });

  it("TSL: the next up reads the devices and sends nothing they already show", async () => {
    const ids = await seed(2, "24");
    const first = await config.create({ deviceIds: ids, properties: { reportInterval: 900 } });
    const inputs = { deviceIds: ids, properties: { reportInterval: 1200 } };
    await env.emulator.control.setFaults({
      kinds: ["empty-after"],
      methods: ["POST"],
      pathIncludes: "/tasks",
      times: 1,
    });
    const updated = await postsToTasks(() => failure(config.update(first.id, first.outs, inputs)));
    expect(updated.posts).toBe(1);
    const partial = updated.result as PartialSuccessError;
    expect(partial).toBeInstanceOf(PartialSuccessError);
    expect(partial.message).toContain("could not be read");
    await env.emulator.control.clearFaults();
    await expect.poll(async () => (await tasksOf(ids)).every((t) => t.status !== "PENDING")).toBe(true);

    const next = await postsToTasks(() => config.update(first.id, partial.properties, inputs));
    expect(next.posts).toBe(0);
    expect(next.result.outs?.pending).toBeUndefined();
  });
});
