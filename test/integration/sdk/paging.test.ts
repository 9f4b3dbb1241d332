/**
 * listDevices pages through 250 devices (pages of 100), tasks for 1,200 devices take 3 calls, and
 * when a later chunk of tasks fails the caller knows exactly which devices got tasks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotFoundError, type DeviceTaskRelation } from "../../../sdk";
import { mapConcurrent, serialNumbers, startHarness, type Harness } from "./support/harness";

let harness: Harness;
const nextSn = serialNumbers();

beforeAll(async () => {
  harness = await startHarness({}, { concurrency: 16 });
});
afterAll(() => harness.stop());

describe("paging", () => {
  it("lists 250 devices across 3 pages", async () => {
    const { client, emulator } = harness;
    const sns = Array.from({ length: 250 }, () => nextSn());
    await mapConcurrent(sns, 16, (sn, i) =>
      client.addDevice({ snDevEUI: sn, name: `d${i}`, project: "paging" }),
    );

    await emulator.control.resetCounters();
    const listed = await client.listDevices({}).toArray();
    const counters = await emulator.control.counters();
    expect(listed).toHaveLength(250);
    expect(new Set(listed.map((d) => d.sn))).toEqual(new Set(sns));
    expect(counters.byRoute["POST /devices/search"]).toBe(3);
  });
});

describe("configuration tasks in chunks", () => {
  it("creates tasks for 1,200 devices with 3 POST /tasks calls", async () => {
    const { client, emulator } = harness;
    const added = await mapConcurrent(
      Array.from({ length: 1200 }, () => nextSn()),
      16,
      (sn) => client.addDevice({ snDevEUI: sn, name: "fleet" }),
    );
    const deviceIds = added.map((a) => a.deviceId);

    await emulator.control.resetCounters();
    const relations = await client.createConfigTasks({
      type: "PROFILE",
      deviceIds,
      config: { version: "2", values: [{ key: "reportInterval", value: 900 }] },
    });
    const counters = await emulator.control.counters();
    expect(counters.byRoute["POST /tasks"]).toBe(3);
    expect(relations).toHaveLength(1200);
    expect(new Set(relations.map((r) => r.deviceId))).toEqual(new Set(deviceIds));
    expect(new Set(relations.map((r) => r.taskId)).size).toBe(1200);
    expect((await emulator.control.state()).tasks.length).toBeGreaterThanOrEqual(1200);
  });

  it("a later chunk failing: onChunkCreated has recorded exactly the tasks the platform created", async () => {
    const { client, emulator } = harness;
    const added = await mapConcurrent(
      Array.from({ length: 1001 }, () => nextSn()),
      16,
      (sn) => client.addDevice({ snDevEUI: sn, name: "partial" }),
    );
    const deviceIds = added.map((a) => a.deviceId);
    await emulator.control.deleteDevice(deviceIds[1000] ?? ""); // alone in the third chunk
    const tasksBefore = new Set((await emulator.control.tasks()).map((t) => t.taskId));

    const recorded: DeviceTaskRelation[] = [];
    const error = await client
      .createConfigTasks(
        { type: "PROFILE", deviceIds, config: { values: [{ key: "reportInterval", value: 600 }] } },
        { onChunkCreated: (relations) => recorded.push(...relations) },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toMatch(
      /HTTP 404 device_not_found: .*tasks for the first 1000 of 1001 devices had been created$/,
    );
    const created = (await emulator.control.tasks()).filter((t) => !tasksBefore.has(t.taskId));
    expect(new Set(recorded.map((r) => r.taskId))).toEqual(new Set(created.map((t) => t.taskId)));
    expect(new Set(recorded.map((r) => r.deviceId))).toEqual(new Set(deviceIds.slice(0, 1000)));
  });
});
