import { describe, expect, it } from "vitest";
import {
  CATALOGUE,
  CONTROLLER,
  GATEWAY,
  SENSOR,
  SUB_DEVICE,
  requireProperty,
  tslOf,
  type TslModel,
} from "../../../emulator";
import { addDevice, serial, useEmulator } from "./support/fixtures";

const h = useEmulator();

interface Config {
  properties: Record<string, unknown>;
}

describe("Query the TSL Model of a Device", () => {
  it.each(CATALOGUE.map((m) => [m.key, m] as const))("serves the %s model's TSL", async (_key, model) => {
    const { deviceId } = await addDevice(h.api, serial(model.serialPrefix));
    const tsl = await h.api.ok<TslModel>("GET", `/devices/${deviceId}/thing-specification`);
    expect(tsl).toEqual(tslOf(model));
    expect(tsl.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(tsl.events.length).toBeGreaterThanOrEqual(2);
    expect(tsl.services.length).toBeGreaterThanOrEqual(2);
  });

  it("lists STRUCT children flat with ids <parent>.<child> and dataSpec.parentId", async () => {
    const { deviceId } = await addDevice(h.api, serial("24"));
    const tsl = await h.api.ok<TslModel>("GET", `/devices/${deviceId}/thing-specification`);
    const children = tsl.properties.filter((p) => p.dataSpec.parentId === "alarmThreshold");
    expect(children.map((c) => c.id)).toEqual([
      "alarmThreshold.high",
      "alarmThreshold.low",
      "alarmThreshold.enabled",
    ]);
    expect(children.every((c) => c.propertyKey === c.id.split(".")[1])).toBe(true);
  });

  it("answers 404 for an unknown device", async () => {
    const response = await h.api.call("GET", "/devices/1735999999999999999/thing-specification");
    expect(response.status).toBe(404);
    expect(response.body.errCode).toBe("device_not_found");
  });
});

describe("Getting the Configuration of a Specific Device", () => {
  it("starts every writable property at its TSL defaultValue, converted to its type", async () => {
    const { deviceId } = await addDevice(h.api, serial("24"));
    const config = await h.api.ok<Config>("GET", `/devices/${deviceId}/config`);
    expect(config).toEqual({
      properties: {
        reportInterval: 600,
        temperatureUnit: 0,
        ledEnabled: true,
        alarmThreshold: {
          "alarmThreshold.high": 30,
          "alarmThreshold.low": 0,
          "alarmThreshold.enabled": false,
        },
        label: "sensor",
      },
    });
  });

  it("covers ARRAY, DATE, DOUBLE, LONG, STRING encodings and write-only properties on the other models", async () => {
    const controller = await addDevice(h.api, serial("AC"));
    const gateway = await addDevice(h.api, serial("66"));
    const sub = await addDevice(h.api, serial("5B"));
    expect((await h.api.ok<Config>("GET", `/devices/${controller.deviceId}/config`)).properties).toEqual({
      setpoint: 21.5,
      mode: 3,
      schedule: [360, 1320],
      childLock: false,
      maintenanceDate: 0,
      displayName: "controller",
      provisioningToken: "",
    });
    expect((await h.api.ok<Config>("GET", `/devices/${gateway.deviceId}/config`)).properties).toMatchObject({
      heartbeatPeriod: 60,
      allowedSubnets: [],
      networkKey: "0".repeat(32),
      wanConfig: { "wanConfig.mode": 0, "wanConfig.address": "0.0.0.0", "wanConfig.mtu": 1500 },
    });
    expect((await h.api.ok<Config>("GET", `/devices/${sub.deviceId}/config`)).properties).toMatchObject({
      probeOffsets: [0, 0],
      buzzer: { "buzzer.volume": 50, "buzzer.pattern": 0 },
    });
  });

  it("reports only writable properties", async () => {
    const { deviceId } = await addDevice(h.api, serial("24"));
    const config = await h.api.ok<Config>("GET", `/devices/${deviceId}/config`);
    const readOnly = requireProperty(SENSOR, { writable: false, dataType: "FLOAT" });
    expect(config.properties).not.toHaveProperty(readOnly.id);
  });

  it("follows a TSL version change: new properties start at their defaults, values are kept", async () => {
    const { deviceId } = await addDevice(h.api, serial("24"));
    await h.api.ok("PATCH", `/devices/${deviceId}/properties`, { properties: { reportInterval: 900 } });
    await h.api.ok("PUT", "/devices", { deviceId, name: "v110", tslVersion: "1.1.0" });
    const config = await h.api.ok<Config>("GET", `/devices/${deviceId}/config`);
    expect(config.properties).toMatchObject({ reportInterval: 900, sampleWindow: 5 });
  });

  it("answers 404 for an unknown device", async () => {
    expect((await h.api.call("GET", "/devices/1735999999999999999/config")).status).toBe(404);
  });

  it("has a model for each documented device type", () => {
    expect([SENSOR, GATEWAY, CONTROLLER, SUB_DEVICE].map((m) => m.deviceType)).toEqual([
      "COMMON",
      "GATEWAY",
      "COMMON",
      "SUB_DEVICE",
    ]);
  });
});
