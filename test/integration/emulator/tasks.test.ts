import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { startEmulator, type TaskRecord } from "../../../emulator";
import { PlatformApi } from "./support/platform-api";
import { addDevice, serial, useEmulator } from "./support/fixtures";

const h = useEmulator();

interface TaskResult {
  deviceTaskRelations: { deviceId: string; taskId: string }[];
}

interface Config {
  properties: Record<string, unknown>;
}

async function sensors(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) ids.push((await addDevice(h.api, serial("24"))).deviceId);
  return ids;
}

async function settled(taskIds: string[], control = h.emulator.control): Promise<TaskRecord[]> {
  // The bound only guards against a hang: tasks run 50 ms after creation on an idle machine.
  for (let attempt = 0; attempt < 1_000; attempt += 1) {
    const tasks = (await control.tasks()).filter((t) => taskIds.includes(t.taskId));
    if (tasks.length === taskIds.length && tasks.every((t) => t.status !== "PENDING")) return tasks;
    await sleep(20);
  }
  throw new Error("tasks did not settle");
}

const tslConfig = (properties: Record<string, unknown>) => ({ version: "1", type: "tsl", properties });

describe("Create Configuration Tasks: TSL", () => {
  it("creates one task per device, PENDING at first, then applies the properties and SUCCEEDS", async () => {
    const ids = await sensors(3);
    const result = await h.api.ok<TaskResult>("POST", "/tasks", {
      type: "TSL",
      deviceIds: ids,
      config: tslConfig({ reportInterval: 1200, alarmThreshold: { high: 35, low: 5 } }),
    });
    expect(result.deviceTaskRelations.map((r) => r.deviceId)).toEqual(ids);
    const taskIds = result.deviceTaskRelations.map((r) => r.taskId);
    expect(new Set(taskIds).size).toBe(3);
    expect(taskIds.every((t) => /^\d+$/.test(t) && BigInt(t) > 2n ** 53n)).toBe(true);
    const early = (await h.emulator.control.tasks()).filter((t) => taskIds.includes(t.taskId));
    expect(early.map((t) => t.status)).toEqual(["PENDING", "PENDING", "PENDING"]);
    const done = await settled(taskIds);
    expect(done.map((t) => t.status)).toEqual(["SUCCEEDED", "SUCCEEDED", "SUCCEEDED"]);
    for (const id of ids) {
      const { properties } = await h.api.ok<Config>("GET", `/devices/${id}/config`);
      expect(properties).toMatchObject({
        reportInterval: 1200,
        alarmThreshold: { "alarmThreshold.high": 35 },
      });
    }
  });

  it("accepts deviceIds as exact JSON numbers and as a comma/semicolon separated string", async () => {
    const ids = await sensors(3);
    const numbers = await h.api.ok<TaskResult>("POST", "/tasks", undefined, {
      rawBody: `{"type":"TSL","deviceIds":[${ids.join(",")}],"config":{"properties":{"ledEnabled":false}}}`,
    });
    expect(numbers.deviceTaskRelations.map((r) => r.deviceId)).toEqual(ids);
    const text = await h.api.ok<TaskResult>("POST", "/tasks", {
      type: "TSL",
      deviceIds: `${ids[0]}, ${ids[1]};${ids[2]}`,
      config: tslConfig({ ledEnabled: true }),
    });
    expect(text.deviceTaskRelations.map((r) => r.deviceId)).toEqual(ids);
  });

  it("checks the config against each device's TSL model and creates nothing when one device's model refuses it", async () => {
    const [sensor] = await sensors(1);
    const gateway = (await addDevice(h.api, serial("66"))).deviceId;
    const response = await h.api.call("POST", "/tasks", {
      type: "TSL",
      deviceIds: [sensor, gateway],
      config: tslConfig({ reportInterval: 900 }),
    });
    expect(response.status).toBe(400);
    expect(response.body.errMsg).toContain(`device ${gateway}`);
    expect(await h.emulator.control.tasks()).toEqual([]);
    const invalid = await h.api.call("POST", "/tasks", {
      type: "TSL",
      deviceIds: [sensor],
      config: tslConfig({ reportInterval: 1 }),
    });
    expect(invalid.status).toBe(400);
  });

  it("answers 404 for an unknown device and creates no task", async () => {
    const [sensor] = await sensors(1);
    const response = await h.api.call("POST", "/tasks", {
      type: "TSL",
      deviceIds: [sensor, "1735999999999999999"],
      config: tslConfig({ reportInterval: 900 }),
    });
    expect(response.status).toBe(404);
    expect(response.body.errCode).toBe("device_not_found");
    expect(await h.emulator.control.tasks()).toEqual([]);
  });

  it("takes at most 500 devices per call", async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `${1735999999999000000n + BigInt(i)}`);
    const tooMany = await h.api.call("POST", "/tasks", {
      type: "TSL",
      deviceIds: ids(501),
      config: tslConfig({ a: 1 }),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errMsg).toContain("at most 500");
    const limit = await h.api.call("POST", "/tasks", {
      type: "TSL",
      deviceIds: ids(500),
      config: tslConfig({ a: 1 }),
    });
    expect(limit.status).toBe(404); // past the count check, stopped at the first unknown device
  });

  it.each([
    [{ type: "FIRMWARE", deviceIds: ["1"], config: {} }],
    [{ type: "TSL", deviceIds: [], config: tslConfig({ a: 1 }) }],
    [{ type: "TSL", deviceIds: ["1", "1"], config: tslConfig({ a: 1 }) }],
    [{ type: "TSL", deviceIds: ["x1"], config: tslConfig({ a: 1 }) }],
    [{ type: "TSL", deviceIds: ["1"] }],
    [{ type: "TSL", config: tslConfig({ a: 1 }) }],
  ])("refuses %j with 400", async (body) => {
    const response = await h.api.call("POST", "/tasks", body);
    expect(response.status).toBe(400);
    expect(response.body.errCode).toBe("invalid_parameter");
  });

  it("refuses a TSL config without properties", async () => {
    const [sensor] = await sensors(1);
    const response = await h.api.call("POST", "/tasks", {
      type: "TSL",
      deviceIds: [sensor],
      config: { version: "1" },
    });
    expect(response.status).toBe(400);
  });
});

describe("Create Configuration Tasks: PROFILE and failures", () => {
  it("applies PROFILE values to the device's profile and SUCCEEDS", async () => {
    const [sensor] = (await sensors(1)) as [string];
    const result = await h.api.ok<TaskResult>("POST", "/tasks", {
      type: "PROFILE",
      deviceIds: [sensor],
      config: { version: "7", values: [{ key: "uplink.port", value: 8883 }] },
    });
    const [task] = await settled(result.deviceTaskRelations.map((r) => r.taskId));
    expect(task).toMatchObject({ status: "SUCCEEDED", type: "PROFILE", applied: { "uplink.port": 8883 } });
    const device = (await h.emulator.control.state()).devices.find((d) => d.deviceId === sensor);
    expect(device?.profile).toEqual({ "uplink.port": 8883 });
  });

  it("refuses a PROFILE config without values", async () => {
    const [sensor] = await sensors(1);
    for (const config of [{}, { values: [] }, { values: [{ key: "", value: 1 }] }]) {
      expect(
        (await h.api.call("POST", "/tasks", { type: "PROFILE", deviceIds: [sensor], config })).status,
      ).toBe(400);
    }
  });

  it("honours taskDelayMs, and FAILS a task whose device was deleted before it ran", async () => {
    const emulator = await startEmulator({ taskDelayMs: 1500 });
    try {
      const api = new PlatformApi(emulator.url);
      const kept = (await addDevice(api, serial("24"))).deviceId;
      const gone = (await addDevice(api, serial("24"))).deviceId;
      const result = await api.ok<TaskResult>("POST", "/tasks", {
        type: "TSL",
        deviceIds: [kept, gone],
        config: tslConfig({ reportInterval: 3600 }),
      });
      await api.ok("DELETE", `/devices/${gone}`);
      await sleep(100);
      expect((await emulator.control.tasks()).map((t) => t.status)).toEqual(["PENDING", "PENDING"]);
      const tasks = await settled(
        result.deviceTaskRelations.map((r) => r.taskId),
        emulator.control,
      );
      expect(tasks.find((t) => t.deviceId === kept)?.status).toBe("SUCCEEDED");
      expect(tasks.find((t) => t.deviceId === gone)).toMatchObject({
        status: "FAILED",
        error: expect.stringContaining("no longer exists"),
      });
    } finally {
      await emulator.stop();
    }
  });
});
