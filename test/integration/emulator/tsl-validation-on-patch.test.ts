import { describe, expect, it } from "vitest";
import { SENSOR, requireProperty } from "../../../emulator";
import { addDevice, serial, useEmulator } from "./support/fixtures";

const h = useEmulator();

interface Config {
  properties: Record<string, unknown>;
}

async function device(prefix: string): Promise<string> {
  return (await addDevice(h.api, serial(prefix))).deviceId;
}

async function patch(deviceId: string, properties: unknown) {
  return h.api.call<Config>("PATCH", `/devices/${deviceId}/properties`, { properties });
}

async function config(deviceId: string): Promise<Record<string, unknown>> {
  return (await h.api.ok<Config>("GET", `/devices/${deviceId}/config`)).properties;
}

describe("Update Device Properties Incrementally: accepted writes", () => {
  it("applies valid values and answers with the properties applied, in the shape sent", async () => {
    const id = await device("24");
    const sent = {
      reportInterval: 120,
      temperatureUnit: "1",
      ledEnabled: false,
      alarmThreshold: { high: 40, low: -5 },
      label: "north wall",
    };
    const response = await patch(id, sent);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ properties: sent });
    expect(await config(id)).toEqual({
      reportInterval: 120,
      temperatureUnit: 1,
      ledEnabled: false,
      alarmThreshold: {
        "alarmThreshold.high": 40,
        "alarmThreshold.low": -5,
        "alarmThreshold.enabled": false,
      },
      label: "north wall",
    });
  });

  it("is incremental: properties and optional STRUCT children not sent keep their values", async () => {
    const id = await device("24");
    await h.api.ok("PATCH", `/devices/${id}/properties`, {
      properties: { alarmThreshold: { high: 50, low: 1, enabled: true } },
    });
    await h.api.ok("PATCH", `/devices/${id}/properties`, {
      properties: { alarmThreshold: { "alarmThreshold.high": 45, "alarmThreshold.low": 2 } },
    });
    expect(await config(id)).toMatchObject({
      reportInterval: 600,
      alarmThreshold: { "alarmThreshold.high": 45, "alarmThreshold.low": 2, "alarmThreshold.enabled": true },
    });
  });

  it("accepts every writable data type at its bounds", async () => {
    const controller = await device("AC");
    await h.api.ok("PATCH", `/devices/${controller}/properties`, {
      properties: {
        setpoint: 35,
        mode: 0,
        schedule: [0, 1439],
        childLock: "true",
        maintenanceDate: 1767225600000,
        displayName: "x".repeat(20),
        provisioningToken: "c2VjcmV0",
      },
    });
    const gateway = await device("66");
    await h.api.ok("PATCH", `/devices/${gateway}/properties`, {
      properties: {
        heartbeatPeriod: 4294967296,
        apn: "iot.example",
        networkKey: "00112233445566778899AABBCCDDEEFF",
        allowedSubnets: ["10.0.0.0/8"],
        wanConfig: { mode: 1, address: "192.0.2.10" },
      },
    });
    expect(await config(gateway)).toMatchObject({
      heartbeatPeriod: 4294967296,
      wanConfig: { "wanConfig.mode": 1 },
    });
  });

  it("lets the catalogue helper find the sensor's writable INT property", async () => {
    const property = requireProperty(SENSOR, { dataType: "INT", writable: true });
    const id = await device("24");
    const max = property.dataSpec.validator?.max ?? 0;
    expect((await patch(id, { [property.id]: max })).status).toBe(200);
    expect((await patch(id, { [property.id]: max + 1 })).status).toBe(400);
  });
});

describe("Update Device Properties Incrementally: refused writes", () => {
  it.each([
    ["24", { nope: 1 }, "nope: no such property"],
    ["24", { temperature: 20 }, "read-only"],
    ["24", { reportInterval: "600" }, "expected an integer"],
    ["24", { reportInterval: 60.5 }, "expected an integer"],
    ["24", { reportInterval: 59 }, "below the minimum 60"],
    ["24", { reportInterval: 86401 }, "above the maximum 86400"],
    ["24", { temperatureUnit: 2 }, "not one of 0, 1"],
    ["24", { ledEnabled: "yes" }, "expected a BOOL"],
    ["24", { ledEnabled: 1 }, "expected a BOOL"],
    ["24", { label: "" }, "fewer than 1"],
    ["24", { label: "x".repeat(33) }, "more than 32"],
    ["24", { alarmThreshold: { high: 30 } }, "alarmThreshold.low: required"],
    ["24", { alarmThreshold: { high: 30, low: 0, colour: 1 } }, "no such child"],
    ["24", { alarmThreshold: { high: 126, low: 0 } }, "above the maximum 125"],
    ["24", { alarmThreshold: [30, 0] }, "expected a STRUCT"],
    ["24", { "alarmThreshold.high": 30 }, "child of the STRUCT alarmThreshold"],
    ["24", { reportInterval: null }, "a value is required"],
    ["66", { networkKey: "XYZ" }, "encoding HEX"],
    ["66", { apn: "café" }, "encoding ASCII"],
    ["66", { allowedSubnets: Array.from({ length: 9 }, () => "a") }, "more than 8"],
    ["66", { allowedSubnets: [1] }, "expected a STRING"],
    ["66", { heartbeatPeriod: 4294967297 }, "above the maximum"],
    ["66", { wanConfig: { address: "1.2.3.4" } }, "wanConfig.mode: required"],
    ["AC", { schedule: [1440] }, "schedule[0]: 1440 is above the maximum 1439"],
    ["AC", { schedule: "360" }, "expected an ARRAY"],
    ["AC", { setpoint: "21" }, "expected a number"],
    ["AC", { maintenanceDate: -1 }, "expected a DATE"],
    ["AC", { provisioningToken: "not base64!" }, "encoding BASE64"],
    ["5B", { probeOffsets: [] }, "fewer than 1"],
    ["5B", { leakDetected: true }, "read-only"],
  ])("model %s: %j is a 400 saying %j", async (prefix, properties, message) => {
    const id = await device(prefix);
    const before = await config(id);
    const response = await patch(id, properties);
    expect(response.status).toBe(400);
    expect(response.body.errCode).toBe("invalid_parameter");
    expect(response.body.errMsg).toContain(message);
    expect(await config(id)).toEqual(before);
  });

  it("applies nothing when one property of several is invalid, and names every problem", async () => {
    const id = await device("24");
    const response = await patch(id, { reportInterval: 900, label: "", temperature: 1 });
    expect(response.status).toBe(400);
    expect(response.body.errMsg).toContain("label");
    expect(response.body.errMsg).toContain("temperature");
    expect((await config(id)).reportInterval).toBe(600);
  });

  it.each([[{}], [[]], ["x"]])("refuses properties = %j", async (properties) => {
    const id = await device("24");
    expect((await patch(id, properties)).status).toBe(400);
  });

  it("refuses a body without properties, and answers 404 for an unknown device", async () => {
    const id = await device("24");
    expect((await h.api.call("PATCH", `/devices/${id}/properties`, { reportInterval: 600 })).status).toBe(
      400,
    );
    const unknown = await patch("1735999999999999999", { reportInterval: 600 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errCode).toBe("device_not_found");
  });

  it("serves PATCH under v1.0 with the same rules", async () => {
    const id = await device("24");
    const ok = await h.api.call(
      "PATCH",
      `/devices/${id}/properties`,
      { properties: { reportInterval: 700 } },
      { version: "v1.0" },
    );
    const bad = await h.api.call(
      "PATCH",
      `/devices/${id}/properties`,
      { properties: { reportInterval: 7 } },
      { version: "V1.0" },
    );
    expect([ok.status, bad.status]).toEqual([200, 400]);
  });
});
