/**
 * The client under injected faults: 300 mixed operations at 30% 429/503/reset all succeed with no
 * duplicate device, and a lost Add response ("reset-after") still yields exactly one device.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TransportError, type DevicePlatformClient } from "../../../sdk";
import {
  mapConcurrent,
  retriesByCause,
  retryEvents,
  serialNumbers,
  startHarness,
  type Harness,
} from "./support/harness";

let harness: Harness;
const nextSn = serialNumbers();

beforeAll(async () => {
  harness = await startHarness({}, { maxRetries: 12, concurrency: 16 });
});
afterAll(() => harness.stop());
beforeEach(async () => {
  await harness.emulator.control.clearFaults();
  await harness.emulator.control.resetCounters();
  harness.events.length = 0;
});

/** Five operations on one device: add, get, update, search, then delete (even) or get again (odd). */
async function lifecycle(client: DevicePlatformClient, sn: string, index: number): Promise<void> {
  const { deviceId } = await client.addDevice({ snDevEUI: sn, name: `dev-${index}` });
  expect((await client.getDevice(deviceId)).sn).toBe(sn);
  await client.updateDevice({ deviceId, name: `renamed-${index}`, tag: ["faults"] });
  const page = await client.searchDevices({ sn, pageSize: 10, pageNumber: 1 });
  expect(page.content.some((d) => d.deviceId === deviceId)).toBe(true);
  if (index % 2 === 0) await client.deleteDevice(deviceId);
  else expect((await client.getDevice(deviceId)).name).toBe(`renamed-${index}`);
}

describe("300 operations under 30% injected faults", () => {
  it("all succeed, with no duplicate and no lost device", async () => {
    const { client, emulator, events } = harness;
    const sns = Array.from({ length: 60 }, () => nextSn());
    await emulator.control.setFaults({
      rate: 0.3,
      kinds: ["429", "503", "reset"],
      retryAfterSeconds: 1,
      seed: 7,
    });

    const started = Date.now();
    await mapConcurrent(sns, 12, (sn, i) => lifecycle(client, sn, i));
    const elapsedMs = Date.now() - started;
    await emulator.control.clearFaults();

    const devices = (await emulator.control.state()).devices;
    for (const [i, sn] of sns.entries()) {
      const matching = devices.filter((d) => d.sn === sn);
      expect(matching, `devices with sn ${sn}`).toHaveLength(i % 2 === 0 ? 0 : 1);
      if (i % 2 === 1) expect(matching[0]?.name).toBe(`renamed-${i}`);
    }

    const counters = await emulator.control.counters();
    const retries = retryEvents(events);
    const summary = {
      operations: 300,
      httpRequests: counters.total,
      requestsPerOperation: Number((counters.total / 300).toFixed(2)),
      byRoute: counters.byRoute,
      attemptsReported: events.length,
      retries: retries.length,
      retriesByCause: retriesByCause(events),
      tokenRefreshRetries: events.filter((e) => e.status === 401).length,
      elapsedMs,
    };
    console.log("300 operations at 30% faults:\n" + JSON.stringify(summary, null, 1));
    expect(retries.length).toBeGreaterThan(30);
    expect(counters.total).toBeLessThanOrEqual(events.length);
  });
});

describe("lost responses of Add a Device", () => {
  it("a reset after the device was added yields exactly one device", async () => {
    const { client, emulator } = harness;
    const sn = nextSn();
    await emulator.control.setFaults({ rate: 1, kinds: ["reset-after"], methods: ["POST"], times: 1 });
    const added = await client.addDevice({ snDevEUI: sn, name: "once" });
    const devices = (await emulator.control.state()).devices.filter((d) => d.sn === sn);
    expect(devices).toHaveLength(1);
    expect(String(devices[0]?.deviceId)).toBe(added.deviceId);
    const counters = await emulator.control.counters();
    expect(counters.byRoute["POST /devices"]).toBe(1);
    expect(counters.byRoute["POST /devices/search"]).toBeGreaterThanOrEqual(1);
  });

  it("many adds under random lost responses each yield exactly one device", async () => {
    const { client, emulator } = harness;
    const sns = Array.from({ length: 40 }, () => nextSn());
    await emulator.control.setFaults({ rate: 0.4, kinds: ["reset-after", "reset", "503"], seed: 11 });
    const added = await mapConcurrent(sns, 8, (sn) => client.addDevice({ snDevEUI: sn, name: "lost" }));
    await emulator.control.clearFaults();
    const devices = (await emulator.control.state()).devices;
    for (const [i, sn] of sns.entries()) {
      const matching = devices.filter((d) => d.sn === sn);
      expect(matching).toHaveLength(1);
      expect(String(matching[0]?.deviceId)).toBe(added[i]?.deviceId);
    }
  });

  it("createConfigTasks after a lost response fails clearly instead of creating tasks twice", async () => {
    const { client, emulator } = harness;
    const { deviceId } = await client.addDevice({ snDevEUI: nextSn(), name: "task" });
    const tasksBefore = (await emulator.control.state()).tasks.length;
    await emulator.control.setFaults({ rate: 1, kinds: ["reset-after"], pathIncludes: "/tasks", times: 1 });
    const error = await client
      .createConfigTasks({
        type: "PROFILE",
        deviceIds: [deviceId],
        config: { values: [{ key: "k", value: 1 }] },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).outcomeUnknown).toBe(true);
    expect((error as TransportError).message).toMatch(/may have been created/);
    expect((await emulator.control.counters()).byRoute["POST /tasks"]).toBe(1);
    expect((await emulator.control.state()).tasks.length).toBe(tasksBefore + 1);
  });

  it("times out a delayed response and repeats the read", async () => {
    const client = harness.newClient({ timeoutMs: 200 });
    const { deviceId } = await client.addDevice({ snDevEUI: nextSn(), name: "slow" });
    await harness.emulator.control.setFaults({
      rate: 1,
      kinds: ["delay"],
      delayMs: 1000,
      methods: ["GET"],
      times: 1,
    });
    expect((await client.getDevice(deviceId)).deviceId).toBe(deviceId);
    expect(retryEvents(harness.events).map((e) => [e.status, e.errorCode])).toContainEqual([
      null,
      "transport_error",
    ]);
  });
});
