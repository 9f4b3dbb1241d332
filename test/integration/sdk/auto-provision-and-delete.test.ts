/**
 * Add a Device with auto-provisioning (v1 `config`, v1.0 `profile`), `autopStatus` on devices and
 * as a search filter, Delete a Device's serial-number answer, and the RPS operations' "success".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  NotFoundError,
  SerialNumberMismatchError,
  ValidationError,
  type DevicePlatformClient,
} from "../../../sdk";
import { serialNumbers, startHarness, type Harness } from "./support/harness";

let harness: Harness;
let client: DevicePlatformClient;
const nextSn = serialNumbers();

const TEMPLATE = {
  version: "v1.0",
  type: "TSL",
  properties: { reportInterval: 900, ledEnabled: false, alarmThreshold: { high: 45, low: -5 } },
};

beforeAll(async () => {
  harness = await startHarness();
  client = harness.client;
});

afterAll(async () => {
  await harness.stop();
});

describe("Add a Device with autoProvision", () => {
  it("applies the template as the device is added (v1 config): SUCCESS, the values, one report", async () => {
    const { deviceId } = await client.addDevice({
      snDevEUI: nextSn(),
      name: "auto",
      autoProvision: true,
      config: TEMPLATE,
    });
    expect((await client.getDevice(deviceId)).autopStatus).toBe("SUCCESS");
    const { properties } = await client.getDeviceConfig(deviceId);
    expect(properties).toMatchObject({ reportInterval: 900, ledEnabled: false });
    expect(properties.alarmThreshold).toMatchObject({ "alarmThreshold.high": 45, "alarmThreshold.low": -5 });
    const reports = await client.propertyHistory(deviceId).toArray();
    expect(reports).toHaveLength(1);
    expect(reports[0]?.properties).toMatchObject({ reportInterval: 900, ledEnabled: false });
  });

  it("sends the template as profile text on v1.0, with the same outcome", async () => {
    const v10 = harness.newClient({ apiVersion: "v1.0" });
    const { deviceId } = await v10.addDevice({
      snDevEUI: nextSn(),
      name: "auto10",
      autoProvision: true,
      config: TEMPLATE,
    });
    expect(await v10.getDevice(deviceId)).toMatchObject({ autopStatus: "SUCCESS" });
    expect((await v10.getDeviceConfig(deviceId)).properties).toMatchObject({ reportInterval: 900 });
  });

  it("leaves a device added without it DISABLE, with the model's defaults and no report", async () => {
    const { deviceId } = await client.addDevice({ snDevEUI: nextSn(), name: "plain" });
    expect((await client.getDevice(deviceId)).autopStatus).toBe("DISABLE");
    expect((await client.getDeviceConfig(deviceId)).properties).toMatchObject({ reportInterval: 600 });
    expect(await client.propertyHistory(deviceId).toArray()).toEqual([]);
  });

  it("is WAITING while devices are held offline (tasks held), SUCCESS once let run; the search filters on it", async () => {
    await harness.emulator.control.holdTasks(true);
    const sn = nextSn();
    const { deviceId } = await client.addDevice({
      snDevEUI: sn,
      name: "waits",
      autoProvision: true,
      config: TEMPLATE,
    });
    expect((await client.getDevice(deviceId)).autopStatus).toBe("WAITING");
    expect((await client.getDeviceConfig(deviceId)).properties).toMatchObject({ reportInterval: 600 });
    const waiting = await client.listDevices({ autopStatus: ["WAITING"] }).toArray();
    expect(waiting.map((d) => d.sn)).toEqual([sn]);
    await harness.emulator.control.holdTasks(false);
    expect((await client.getDevice(deviceId)).autopStatus).toBe("SUCCESS");
    expect((await client.getDeviceConfig(deviceId)).properties).toMatchObject({ reportInterval: 900 });
    expect(await client.listDevices({ autopStatus: ["WAITING"] }).toArray()).toEqual([]);
    const succeeded = await client.listDevices({ autopStatus: ["SUCCESS"] }).toArray();
    expect(succeeded.map((d) => d.sn)).toContain(sn);
  });

  it("adds nothing when the template breaks the device's model (400 from the platform)", async () => {
    const sn = nextSn();
    const error = await client
      .addDevice({
        snDevEUI: sn,
        name: "bad",
        autoProvision: true,
        config: { properties: { reportInterval: 5 } },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 400, errCode: "invalid_parameter" });
    expect((error as Error).message).toMatch(/reportInterval/);
    expect(await client.findDeviceBySn(sn)).toBeUndefined();
  });

  it("refuses autoProvision without a template, and a template without autoProvision, sending nothing", async () => {
    await harness.emulator.control.resetCounters();
    await expect(client.addDevice({ snDevEUI: nextSn(), name: "x", autoProvision: true })).rejects.toThrow(
      /config: a profile template is required when autoProvision is true/,
    );
    await expect(client.addDevice({ snDevEUI: nextSn(), name: "x", config: TEMPLATE })).rejects.toThrow(
      /autoProvision: must be true when a profile template/,
    );
    expect((await harness.emulator.control.counters()).total).toBe(0);
  });
});

describe("Delete a Device answers the serial number", () => {
  it("resolves with the deleted device's serial number, and accepts it when it is the one expected", async () => {
    const sn = nextSn();
    const first = await client.addDevice({ snDevEUI: sn, name: "gone" });
    expect(await client.deleteDevice(first.deviceId)).toBe(sn);
    const second = await client.addDevice({ snDevEUI: sn, name: "gone again" });
    expect(await client.deleteDevice(second.deviceId, { sn: sn.toLowerCase() })).toBe(sn);
  });

  it("fails with serial_number_mismatch when the platform deleted a device of another serial number", async () => {
    const sn = nextSn();
    const { deviceId } = await client.addDevice({ snDevEUI: sn, name: "other" });
    const meant = nextSn();
    const error = await client.deleteDevice(deviceId, { sn: meant }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SerialNumberMismatchError);
    expect(error).toMatchObject({ code: "serial_number_mismatch", status: 200 });
    expect((error as Error).message).toContain(`answered serial number ${sn}, not ${meant}`);
    await expect(client.getDevice(deviceId)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("RPS operations answer success", () => {
  it('Specify the Profile URL answers data "success", and Delete RPS Record succeeds', async () => {
    const sn = nextSn();
    const set = await client.setRpsProfile({ sn, profileUrl: "https://rps.example.com/p" });
    expect(set.result).toBe("success");
    await expect(client.deleteRpsProfile(sn)).resolves.toBeUndefined();
    await expect(client.deleteRpsProfile(sn)).rejects.toBeInstanceOf(NotFoundError);
  });
});
