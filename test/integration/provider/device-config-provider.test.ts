/**
 * The DeviceConfig implementation against a real emulator on loopback: check against TSL models
 * (one GET per device, cached), PATCH for one device, tasks for several, a PATCH taken in part,
 * drift on read, per-device TSL versions, LONG digits on the wire, and resetOnDelete.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { PartialSuccessError } from "../../../provider/shared/errors";
import { deviceConfigImplementation as config } from "../../../provider/device-config/provider";
import { platformClient } from "../../../provider/platform-access/platform-client";
import { resetPropertyOwnership } from "../../../provider/guardrails/property-ownership";
import { forgetThingModels } from "../../../provider/tsl/models";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { useConfiguredEmulator } from "./support/configured-emulator";

const env = useConfiguredEmulator({ taskDelayMs: 10 });

beforeEach(async () => {
  forgetThingModels();
  await env.emulator.control.clearFaults();
});

/** Seeds `count` devices of a model (serial prefix) and returns their ids. */
async function seed(count: number, prefix = "24"): Promise<string[]> {
  const devices = await Promise.all(
    serialNumbers(count, prefix).map((sn, i) => env.emulator.control.seedDevice({ sn, name: `cfg-${i}` })),
  );
  return devices.map((d) => d.deviceId);
}

async function propertiesOf(deviceId: string) {
  return (await (await platformClient()).getDeviceConfig(deviceId)).properties;
}

async function counted<T>(body: () => Promise<T>): Promise<{ result: T; byRoute: Record<string, number> }> {
  await env.emulator.control.resetCounters();
  const result = await body();
  return { result, byRoute: (await env.emulator.control.counters()).byRoute };
}

describe("DeviceConfig check", () => {
  it("validates against the device's model, fetching each model once per deployment", async () => {
    const [id] = (await seed(1)) as [string];
    const first = await counted(() =>
      config.check({}, { deviceIds: id, properties: { reportInterval: 90000 } }),
    );
    expect(first.result.failures).toEqual([
      {
        property: "properties.reportInterval",
        reason: `DeviceConfig.properties.reportInterval must be at most 86400 (TSL validator max of device ${id}), got 90000`,
      },
    ]);
    expect(first.byRoute["GET /devices/{deviceId}/thing-specification"]).toBe(1);
    const second = await counted(() =>
      config.check({}, { deviceIds: [id], properties: { ledEnabled: false } }),
    );
    expect(second.result.failures).toEqual([]);
    expect(second.byRoute).toEqual({});
  });

  it("names a wrong value beside a property left null, in the same check", async () => {
    const [id] = (await seed(1)) as [string];
    const { failures } = await config.check(
      {},
      { deviceIds: [id], properties: { ledEnabled: null, alarmThreshold: { high: "hot", low: 0 } } },
    );
    expect(failures?.map((f) => f.reason)).toEqual([
      "DeviceConfig.properties.ledEnabled must have a value; to stop managing it, remove it",
      `DeviceConfig.properties.alarmThreshold.high must be a number (TSL dataType FLOAT of device ${id}), got "hot"`,
    ]);
  });

  it("names a device the platform does not know", async () => {
    const { failures } = await config.check(
      {},
      { deviceIds: ["12345"], properties: { reportInterval: 600 } },
    );
    expect(failures?.[0]?.property).toBe("deviceIds[0]");
    expect(failures?.[0]?.reason).toMatch(
      /^DeviceConfig\.deviceIds\[0\] names device 12345, which is not on the platform \(.*404/,
    );
  });

  it("validates each device against its own TSL version", async () => {
    const ids = await seed(3);
    const client = await platformClient();
    for (const id of ids.slice(1))
      await client.updateDevice({ deviceId: id, name: "v110", tslVersion: "1.1.0" });
    const { failures } = await config.check({}, { deviceIds: ids, properties: { sampleWindow: 10 } });
    expect(failures).toHaveLength(1);
    expect(failures?.[0]?.reason).toContain(
      `is not a property of the TSL model version 1.0.0 of device ${ids[0]};`,
    );
  });

  it("makes no request for inputs it accepted before", async () => {
    const [id] = (await seed(1)) as [string];
    const inputs = { deviceIds: [id], properties: { reportInterval: 600 } };
    const { byRoute } = await counted(() => config.check(inputs, inputs));
    expect(byRoute).toEqual({});
  });
});

describe("DeviceConfig on one device", () => {
  it("creates by PATCH, reads drift, updates and restores defaults on delete", async () => {
    const [id] = (await seed(1)) as [string];
    const inputs = {
      deviceIds: [id],
      properties: { reportInterval: 900, alarmThreshold: { high: 40, low: 5 } },
      resetOnDelete: true,
    };
    const created = await counted(() => config.create(inputs));
    expect(created.byRoute["PATCH /devices/{deviceId}/properties"]).toBe(1);
    expect(created.result).toEqual({ id, outs: { ...inputs, method: "patch", taskIds: {} } });
    expect(await propertiesOf(id)).toMatchObject({
      reportInterval: 900,
      alarmThreshold: { "alarmThreshold.high": 40, "alarmThreshold.low": 5 },
    });

    await env.emulator.control.changeDevice(id, { properties: { reportInterval: 1200 } });
    const read = await config.read(id, created.result.outs);
    expect(read.inputs?.properties).toEqual({ reportInterval: 1200, alarmThreshold: { high: 40, low: 5 } });

    const news = { ...inputs, properties: { ...inputs.properties, reportInterval: 900 } };
    expect((await config.diff(id, read.props ?? {}, news)).changes).toBe(true);
    const updated = await config.update(id, read.props ?? {}, news);
    expect(updated.outs?.properties).toEqual(news.properties);
    expect((await propertiesOf(id)).reportInterval).toBe(900);

    // The delete comes in a later deployment: the one-owner record of this one is gone by then.
    resetPropertyOwnership();
    await config.delete(id, updated.outs ?? {});
    expect(await propertiesOf(id)).toMatchObject({
      reportInterval: 600,
      alarmThreshold: { "alarmThreshold.high": 30, "alarmThreshold.low": 0 },
    });
  });

  it("fails a PATCH taken in part, naming what was not applied, keeping only what was", async () => {
    const [id] = (await seed(1)) as [string];
    await env.emulator.control.setFaults({ kinds: [], dropProperties: ["ledEnabled", "alarmThreshold.low"] });
    const inputs = {
      deviceIds: [id],
      properties: { reportInterval: 700, ledEnabled: false, alarmThreshold: { high: 40, low: 5 } },
    };
    const error = await config.create(inputs).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartialSuccessError);
    const partial = error as PartialSuccessError;
    expect(partial.message).toMatch(/not applied: device \d+: ledEnabled and alarmThreshold\.low/);
    expect(partial.id).toBe(id);
    expect(partial.properties.properties).toEqual({ reportInterval: 700, alarmThreshold: { high: 40 } });
  });

  it("sends a LONG given as digits as a JSON number", async () => {
    const [id] = (await seed(1, "66")) as [string];
    await config.create({ deviceIds: [id], properties: { heartbeatPeriod: "4294967296" } });
    expect((await propertiesOf(id)).heartbeatPeriod).toBe(4294967296);
  });
});

describe("DeviceConfig on several devices", () => {
  it("creates configuration tasks, one per device, and records their ids", async () => {
    const ids = await seed(3);
    const { result, byRoute } = await counted(() =>
      config.create({ deviceIds: ids, properties: { reportInterval: 300 }, version: "v1" }),
    );
    expect(byRoute["POST /tasks"]).toBe(1);
    expect(result.outs.method).toBe("tasks");
    expect(Object.keys(result.outs.taskIds as object).sort()).toEqual([...ids].sort());
    await expect.poll(async () => (await propertiesOf(ids[2] as string)).reportInterval).toBe(300);
    const tasks = await env.emulator.control.tasks();
    expect(tasks.filter((t) => ids.includes(t.deviceId)).map((t) => t.config.version)).toEqual([
      "v1",
      "v1",
      "v1",
    ]);
  });

  it("applies a PROFILE template by tasks", async () => {
    const ids = await seed(2, "AC");
    const { outs } = await config.create({ deviceIds: ids, profile: { ecoMode: true, night: 18 } });
    expect(outs.method).toBe("tasks");
    await expect
      .poll(
        async () => (await env.emulator.control.state()).devices.find((d) => d.deviceId === ids[1])?.profile,
      )
      .toEqual({ ecoMode: true, night: 18 });
  });

  it("refuses to write when any device's model rejects a value", async () => {
    const ids = await seed(2);
    const { byRoute } = await counted(() =>
      config.create({ deviceIds: ids, properties: { reportInterval: 10 } }).catch((e: unknown) => e),
    );
    expect(byRoute["POST /tasks"]).toBeUndefined();
  });

  it("writes only what the devices do not already have, and nothing when they have it all", async () => {
    const ids = await seed(4);
    const [first, second] = ids as [string, string];
    // The model's default reportInterval is 600; two devices already run the wanted 900.
    await env.emulator.control.changeDevice(first, { properties: { reportInterval: 900 } });
    await env.emulator.control.changeDevice(second, { properties: { reportInterval: 900 } });
    const wanted = { reportInterval: 900, temperatureUnit: 1 };
    const { result, byRoute } = await counted(() => config.create({ deviceIds: ids, properties: wanted }));
    expect(byRoute["GET /devices/{deviceId}/config"]).toBe(4);
    expect(byRoute["POST /tasks"]).toBe(2); // two payloads: the unit alone, and both properties
    const tasks = (await env.emulator.control.tasks()).filter((t) => ids.includes(t.deviceId));
    expect(tasks.find((t) => t.deviceId === first)?.config.properties).toEqual({ temperatureUnit: 1 });
    expect(result.outs.properties).toEqual(wanted);

    await expect.poll(async () => (await propertiesOf(ids[3] as string)).temperatureUnit).toBe(1);
    forgetThingModels();
    const again = await counted(() => config.create({ deviceIds: ids, properties: wanted }));
    expect(again.byRoute["POST /tasks"]).toBeUndefined();
    expect(again.byRoute["PATCH /devices/{deviceId}/properties"]).toBeUndefined();
    expect(again.result.outs).toMatchObject({ deviceIds: ids, properties: wanted, taskIds: {} });
  });

  it("takes a fleet's deviceIds record (serial number → deviceId)", async () => {
    const ids = await seed(2);
    const record = { "240000000000AA01": ids[0], "240000000000AA02": ids[1] };
    const { inputs, failures } = await config.check(
      {},
      { deviceIds: record, properties: { reportInterval: 300 } },
    );
    expect(failures).toEqual([]);
    expect(inputs.deviceIds).toEqual(ids);
  });

  it("records the tasks of the chunks created when a later chunk fails, and the next up configures only the rest", async () => {
    const serials = serialNumbers(1_100);
    const { devices } = await env.emulator.control.seed({
      devices: serials.map((sn, i) => ({ sn, name: `chunk-${i}` })),
    });
    const ids = devices.map((d) => d.deviceId);
    const inputs = { deviceIds: ids, properties: { reportInterval: 1200 } };
    // The first call of three (500 devices) goes through; the second fails with a 500.
    await env.emulator.control.setFaults({ kinds: ["500"], pathIncludes: "/tasks", after: 1, times: 1 });
    const failure: unknown = await config.create(inputs).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(PartialSuccessError);
    const partial = failure as PartialSuccessError;
    expect(partial.message).toMatch(
      /POST \/device\/openapi\/v1\/tasks failed: HTTP 500 .*Tasks were created for 500 device\(s\)/,
    );
    expect(partial.properties.deviceIds).toHaveLength(1_100);
    expect(Object.keys(partial.properties.taskIds as object)).toHaveLength(500);
    // The second call's 500 devices may have got tasks (HTTP 500: outcome unknown); the last 100 were never sent.
    const pending = Object.values(partial.properties.pending as Record<string, { unknown?: object }>);
    expect(pending).toHaveLength(600);
    expect(pending.filter((entry) => entry.unknown)).toHaveLength(500);
    await env.emulator.control.clearFaults();

    const { byRoute } = await counted(() => config.update(partial.id, partial.properties, inputs));
    expect(byRoute["POST /tasks"]).toBe(2); // 600 devices: 500 + 100
    const tasks = (await env.emulator.control.tasks()).filter((t) => ids.includes(t.deviceId));
    expect(tasks).toHaveLength(1_100);
    expect(new Set(tasks.map((t) => t.deviceId)).size).toBe(1_100);
  });
});
