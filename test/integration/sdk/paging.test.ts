/** listDevices pages through 250 devices (pages of 100), and tasks for 1,200 devices take 3 calls. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
});
