/**
 * Every client method against a real emulator, with the requests each one costs (from the emulator's
 * counters, so token requests and lookups are included).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConflictError, DevicePlatformClient, NotFoundError, ValidationError } from "../../../sdk";
import { serialNumbers, startHarness, type Harness } from "./support/harness";

let harness: Harness;
let client: DevicePlatformClient;
const nextSn = serialNumbers();
const requestsPerOperation: Record<string, Record<string, number>> = {};

beforeAll(async () => {
  harness = await startHarness();
  client = harness.client;
});

afterAll(async () => {
  console.log(
    "requests per operation (emulator counters):\n" + JSON.stringify(requestsPerOperation, null, 1),
  );
  await harness.stop();
});

/** Runs `fn` and records the requests the emulator saw meanwhile under `name`. */
async function measured<T>(name: string, fn: () => Promise<T>): Promise<T> {
  await harness.emulator.control.resetCounters();
  const result = await fn();
  requestsPerOperation[name] = (await harness.emulator.control.counters()).byRoute;
  return result;
}

describe("devices", () => {
  it("adds, reads, updates, searches, lists, finds and deletes a device", async () => {
    const sn = nextSn();
    const added = await measured("addDevice (first call: includes the token)", () =>
      client.addDevice({ snDevEUI: sn, name: "lobby", description: "first", project: "p1", tag: ["a", "b"] }),
    );
    expect(added.sn).toBe(sn);
    expect(added.deviceId).toMatch(/^\d+$/);

    const device = await measured("getDevice", () => client.getDevice(added.deviceId));
    expect(device).toMatchObject({
      deviceId: added.deviceId,
      sn,
      name: "lobby",
      project: "p1",
      tag: ["a", "b"],
    });
    expect(["GATEWAY", "SUB_DEVICE", "COMMON"]).toContain(device.deviceType);

    const updated = await measured("updateDevice", () =>
      client.updateDevice({ deviceId: added.deviceId, name: "hall", description: "second", tag: ["c"] }),
    );
    expect(updated.deviceId).toBe(added.deviceId);
    expect(await client.getDevice(added.deviceId)).toMatchObject({
      name: "hall",
      description: "second",
      tag: ["c"],
      project: "p1", // no project given: kept
    });
    await client.updateDevice({ deviceId: added.deviceId, name: "hall", project: "p2" });
    expect((await client.getDevice(added.deviceId)).project).toBe("p2");
    await client.updateDevice({ deviceId: added.deviceId, name: "hall", project: "" });
    expect((await client.getDevice(added.deviceId)).project).toBeUndefined();

    const page = await measured("searchDevices", () =>
      client.searchDevices({ sn, pageSize: 10, pageNumber: 1 }),
    );
    expect(page.content.map((d) => d.deviceId)).toContain(added.deviceId);
    expect(page.pageSize).toBe(10);

    const listed = await measured("listDevices (1 page)", () => client.listDevices({ sn }).toArray());
    expect(listed.map((d) => d.sn)).toEqual([sn]);

    expect(await measured("findDeviceBySn", () => client.findDeviceBySn(sn))).toMatchObject({
      deviceId: added.deviceId,
    });
    expect(await client.findDeviceBySn(sn.toLowerCase())).toMatchObject({ deviceId: added.deviceId });

    await measured("deleteDevice", () => client.deleteDevice(added.deviceId));
    expect(await client.findDeviceBySn(sn)).toBeUndefined();
    const gone = await client.getDevice(added.deviceId).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(NotFoundError);
    expect((gone as NotFoundError).requestId).toBeTruthy();
    await expect(client.deleteDevice(added.deviceId)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("reports a duplicate serial number as ConflictError and a bad one as ValidationError", async () => {
    const sn = nextSn();
    await client.addDevice({ snDevEUI: sn, name: "one" });
    const duplicate = await client.addDevice({ snDevEUI: sn, name: "two" }).catch((e: unknown) => e);
    expect(duplicate).toBeInstanceOf(ConflictError);
    expect((duplicate as ConflictError).message).toMatch(
      /^POST \/device\/openapi\/v1\/devices failed: HTTP 409 \w+: .+ \(requestId .+, 1 attempt\)$/,
    );
    await expect(client.addDevice({ snDevEUI: "not-hex!", name: "x" })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });
});

describe("TSL model and configuration", () => {
  it("reads the model, patches a writable property, reads the configuration back", async () => {
    const { deviceId } = await client.addDevice({ snDevEUI: nextSn(), name: "cfg" });
    const model = await measured("getThingModel", () => client.getThingModel(deviceId));
    const interval = model.properties.find((p) => p.id === "reportInterval");
    expect(interval).toMatchObject({ accessMode: "RW", dataSpec: { dataType: "INT" } });
    expect(model.properties.some((p) => p.accessMode === "R")).toBe(true);

    const applied = await measured("updateProperties", () =>
      client.updateProperties(deviceId, { reportInterval: 900 }),
    );
    expect(applied.properties).toEqual({ reportInterval: 900 });
    const config = await measured("getDeviceConfig", () => client.getDeviceConfig(deviceId));
    expect(config.properties.reportInterval).toBe(900);
  });

  it("creates configuration tasks for several devices", async () => {
    const ids = await Promise.all(
      [1, 2, 3].map(async () => (await client.addDevice({ snDevEUI: nextSn(), name: "t" })).deviceId),
    );
    const relations = await measured("createConfigTasks (3 devices)", () =>
      client.createConfigTasks({
        type: "TSL",
        deviceIds: ids,
        config: { version: "1", properties: { reportInterval: 120 } },
      }),
    );
    expect(relations.map((r) => r.deviceId).sort()).toEqual([...ids].sort());
    for (const relation of relations) expect(relation.taskId).toMatch(/^\d+$/);
  });
});

describe("RPS records", () => {
  it("sets, searches, lists and deletes a profile URL", async () => {
    const sn = nextSn();
    const set = await measured("setRpsProfile", () =>
      client.setRpsProfile({ sn, profileUrl: "https://rps.example.com/a" }),
    );
    expect(set).toMatchObject({ sn, profileUrl: "https://rps.example.com/a" });
    await client.setRpsProfile({ sn, profileUrl: "https://rps.example.com/b" });

    const page = await measured("searchRpsProfiles", () =>
      client.searchRpsProfiles({ pageSize: 100, pageNumber: 1 }),
    );
    expect(page.content).toContainEqual({ sn, profileUrl: "https://rps.example.com/b" });
    const all = await measured("listRpsProfiles (1 page)", () => client.listRpsProfiles().toArray());
    expect(all.filter((r) => r.sn === sn)).toEqual([{ sn, profileUrl: "https://rps.example.com/b" }]);

    // The platform refuses to add a device held by an RPS record.
    await expect(client.addDevice({ snDevEUI: sn, name: "held" })).rejects.toBeInstanceOf(ConflictError);

    await measured("deleteRpsProfile", () => client.deleteRpsProfile(sn));
    await expect(client.deleteRpsProfile(sn)).rejects.toBeInstanceOf(NotFoundError);
    expect((await client.listRpsProfiles().toArray()).some((r) => r.sn === sn)).toBe(false);
  });
});

describe("v1.0 and close", () => {
  it("serves the same operations under v1.0, and close() ends the client", async () => {
    const other = harness.newClient({ apiVersion: "v1.0" });
    const { deviceId } = await other.addDevice({ snDevEUI: nextSn(), name: "v10" });
    expect((await other.getDevice(deviceId)).name).toBe("v10");
    await other.close();
    await expect(other.getDevice(deviceId)).rejects.toMatchObject({ code: "transport_error" });
  });
});

describe("verifyAccess", () => {
  it("costs a token request only when the process holds no valid token, and fails for wrong credentials", async () => {
    const counted = await measured("verifyAccess (token already held)", () => client.verifyAccess());
    expect(counted).toBeUndefined();
    expect(requestsPerOperation["verifyAccess (token already held)"]).toEqual({});
    const wrong = new DevicePlatformClient({
      baseUrl: harness.emulator.url,
      clientId: "demo-client",
      clientSecret: "not-the-secret",
    });
    try {
      await expect(wrong.verifyAccess()).rejects.toMatchObject({ code: "authentication_failed" });
    } finally {
      await wrong.close();
    }
  });
});
