/**
 * The client under injected faults: 300 mixed operations at 30% 429/500/503/reset all succeed with
 * no duplicate device; 300 safe operations likewise; a lost Add response ("reset-after") still
 * yields exactly one device; Create Configuration Tasks is never sent twice after an ambiguous
 * outcome.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  RateLimitError,
  ServerError,
  TransportError,
  clearTokenCache,
  type DevicePlatformClient,
  type DevicePlatformError,
} from "../../../sdk";
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
      // No 429 in the mix: a random 429 is what a platform says to slow the whole client down, and
      // the client does (pacer.ts); rate-limit.test.ts and stacks-share-a-rate-limit cover it.
      kinds: ["500", "503", "reset"],
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

  it("300 safe operations (GET, PUT, search, PATCH, RPS specify, DELETE) all succeed, 500s included", async () => {
    const { client, emulator, events } = harness;
    const devices = await mapConcurrent(
      Array.from({ length: 30 }, () => nextSn()),
      8,
      async (sn, i) => ({
        sn,
        deviceId: (await client.addDevice({ snDevEUI: sn, name: `safe-${i}` })).deviceId,
      }),
    );
    const rpsSns = Array.from({ length: 30 }, () => nextSn());
    events.length = 0;
    await emulator.control.setFaults({
      rate: 0.3,
      kinds: ["500", "503", "reset"],
      retryAfterSeconds: 0,
      seed: 29,
    });
    await mapConcurrent(devices, 10, (device, i) => safeOperations(client, device, rpsSns[i] ?? "", i));
    await emulator.control.clearFaults();

    const state = await emulator.control.state();
    for (const [i, { deviceId }] of devices.entries()) {
      const stored = state.devices.find((d) => String(d.deviceId) === deviceId);
      expect(stored?.name).toBe(`safe-${i}-renamed`);
    }
    const rpsLeft = state.rpsRecords.filter((r) => rpsSns.includes(r.sn)).map((r) => r.sn);
    expect(rpsLeft.sort()).toEqual(rpsSns.filter((_, i) => i % 2 === 1).sort());
    const byCause = retriesByCause(events);
    console.log("300 safe operations at 30% faults, retries by cause: " + JSON.stringify(byCause));
    for (const cause of ["500", "503", "no response"]) expect(byCause[cause], cause).toBeGreaterThan(0);
  });
});

/** Ten safe operations on one device and one RPS serial number: 30 × 10 = 300. */
async function safeOperations(
  client: DevicePlatformClient,
  device: { deviceId: string; sn: string },
  rpsSn: string,
  index: number,
): Promise<void> {
  const { deviceId } = device;
  expect((await client.getDevice(deviceId)).sn).toBe(device.sn);
  await client.updateDevice({ deviceId, name: `safe-${index}-renamed`, tag: ["safe"] });
  expect((await client.updateProperties(deviceId, { reportInterval: 300 + index })).properties).toEqual({
    reportInterval: 300 + index,
  });
  expect((await client.getDeviceConfig(deviceId)).properties.reportInterval).toBe(300 + index);
  expect((await client.getThingModel(deviceId)).properties.length).toBeGreaterThan(0);
  expect((await client.searchDevices({ sn: device.sn, pageSize: 10 })).content).toHaveLength(1);
  await client.setRpsProfile({ sn: rpsSn, profileUrl: `https://rps.example.com/${index}` });
  await client.setRpsProfile({ sn: rpsSn, profileUrl: `https://rps.example.com/${index}/b` });
  expect((await client.searchRpsProfiles({ pageSize: 1 })).total).toBeGreaterThan(0);
  if (index % 2 === 0) await client.deleteRpsProfile(rpsSn);
  else expect((await client.getDevice(deviceId)).name).toBe(`safe-${index}-renamed`);
}

describe("server faults of single requests", () => {
  it("a GET answered 500 twice, then 200, succeeds with 3 attempts", async () => {
    const { client, emulator, events } = harness;
    const { deviceId } = await client.addDevice({ snDevEUI: nextSn(), name: "flaky" });
    events.length = 0;
    await emulator.control.resetCounters();
    await emulator.control.setFaults({ rate: 1, kinds: ["500"], methods: ["GET"], times: 2 });
    expect((await client.getDevice(deviceId)).deviceId).toBe(deviceId);
    expect(events.map((e) => [e.attempt, e.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect((await emulator.control.counters()).byRoute["GET /devices/{deviceId}"]).toBe(3);
  });

  it("POST /tasks answered 500 or 503 fails after exactly 1 attempt, outcome unknown", async () => {
    const { client, emulator } = harness;
    const { deviceId } = await client.addDevice({ snDevEUI: nextSn(), name: "task-500" });
    for (const kind of ["500", "503"] as const) {
      await emulator.control.resetCounters();
      await emulator.control.setFaults({ rate: 1, kinds: [kind], pathIncludes: "/tasks", times: 1 });
      const error = (await client
        .createConfigTasks({
          type: "TSL",
          deviceIds: [deviceId],
          config: { properties: { reportInterval: 60 } },
        })
        .catch((e: unknown) => e)) as DevicePlatformError;
      expect(error, kind).toBeInstanceOf(ServerError);
      expect(error.status).toBe(Number(kind));
      expect(error.attempts).toBe(1);
      expect(error.outcomeUnknown).toBe(true);
      expect(error.message).toMatch(
        /tasks for this device may have been created, so the request was not repeated/,
      );
      expect((await emulator.control.counters()).byRoute["POST /tasks"]).toBe(1);
    }
  });

  it("POST /tasks answered 429 is retried (not performed) and creates the tasks once", async () => {
    const { client, emulator } = harness;
    const { deviceId } = await client.addDevice({ snDevEUI: nextSn(), name: "task-429" });
    const before = (await emulator.control.tasks()).filter((t) => String(t.deviceId) === deviceId).length;
    await emulator.control.resetCounters();
    await emulator.control.setFaults({
      rate: 1,
      kinds: ["429"],
      retryAfterSeconds: 0,
      pathIncludes: "/tasks",
      times: 2,
    });
    const relations = await client.createConfigTasks({
      type: "TSL",
      deviceIds: [deviceId],
      config: { properties: { reportInterval: 90 } },
    });
    expect(relations.map((r) => r.deviceId)).toEqual([deviceId]);
    expect((await emulator.control.counters()).byRoute["POST /tasks"]).toBe(3);
    const after = (await emulator.control.tasks()).filter((t) => String(t.deviceId) === deviceId).length;
    expect(after - before).toBe(1);
  });

  it("the token request is retried after 500 and 503", async () => {
    clearTokenCache();
    const client = harness.newClient();
    const { emulator } = harness;
    await emulator.control.resetCounters();
    await emulator.control.setFaults({
      rate: 1,
      kinds: ["500", "503"],
      retryAfterSeconds: 0,
      pathIncludes: "/oauth/token",
      times: 2,
    });
    expect((await client.searchDevices({ pageSize: 1 })).pageSize).toBe(1);
    expect((await emulator.control.counters()).byRoute["POST /oauth/token"]).toBe(3);
  });

  it("a safe operation still failing after maxRetries reports every attempt", async () => {
    const client = harness.newClient({ maxRetries: 2 });
    const { deviceId } = await client.addDevice({ snDevEUI: nextSn(), name: "always-503" });
    await harness.emulator.control.setFaults({
      rate: 1,
      kinds: ["503"],
      retryAfterSeconds: 0,
      methods: ["GET"],
    });
    const error = (await client.getDevice(deviceId).catch((e: unknown) => e)) as DevicePlatformError;
    expect(error.status).toBe(503);
    expect(error.attempts).toBe(3);
    expect(error.message).toMatch(/HTTP 503 .+\(requestId .+, 3 attempts\)$/);
  });

  it("a read refused for the rate limit fails once refused for longer than rateLimitWaitMs, not after maxRetries", async () => {
    const client = harness.newClient({ maxRetries: 0, rateLimitWaitMs: 2_000 });
    const { deviceId } = await client.addDevice({ snDevEUI: nextSn(), name: "always-429" });
    await harness.emulator.control.setFaults({
      rate: 1,
      kinds: ["429"],
      retryAfterSeconds: 1,
      methods: ["GET"],
    });
    const error = (await client.getDevice(deviceId).catch((e: unknown) => e)) as DevicePlatformError;
    expect(error).toBeInstanceOf(RateLimitError);
    // Refused, paused 1 s, refused again (within the 2 s), paused 1 s, refused (2 s on): 3 at least.
    expect(error.attempts).toBeGreaterThanOrEqual(3);
    expect(error.message).toMatch(/the longest this client waits one out \(rateLimitWait: 2 s\)$/);
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
