import { describe, expect, it } from "vitest";
import { CONTROLLER, GATEWAY, SENSOR, SUB_DEVICE } from "../../../emulator";
import { addDevice, serial, useEmulator, type DeviceJson, type DeviceResult } from "./support/fixtures";

const h = useEmulator();
const TWO_POW_53 = 2n ** 53n;

describe("Add a Device", () => {
  it("returns sn and a deviceId issued above 2^53 as a string of digits, plus devEUI for the sensor", async () => {
    const sn = serial("24");
    const result = await addDevice(h.api, sn);
    expect(result).toEqual({ sn, deviceId: expect.stringMatching(/^\d+$/), devEUI: expect.any(String) });
    expect(BigInt(result.deviceId) > TWO_POW_53).toBe(true);
  });

  it("returns devEUI and imei only for the models that have them", async () => {
    const gateway = await addDevice(h.api, serial("66"));
    const controller = await addDevice(h.api, serial("AC"));
    expect(gateway).toEqual(
      expect.objectContaining({ devEUI: expect.any(String), imei: expect.stringMatching(/^\d{15}$/) }),
    );
    expect(controller.imei).toMatch(/^\d{15}$/);
    expect(controller.devEUI).toBeUndefined();
  });

  it("issues distinct ids that differ below float64 precision", async () => {
    const a = await addDevice(h.api, serial());
    const b = await addDevice(h.api, serial());
    expect(a.deviceId).not.toBe(b.deviceId);
    expect(Number(a.deviceId)).toBe(Number(b.deviceId)); // why ids must stay strings
  });

  it("refuses a serial number already in this application with 409 device_already_exists naming the deviceId", async () => {
    const sn = serial();
    const first = await addDevice(h.api, sn);
    const again = await h.api.call("POST", "/devices", { snDevEUI: sn.toLowerCase(), name: "dup" });
    expect(again.status).toBe(409);
    expect(again.body.errCode).toBe("device_already_exists");
    expect(again.body.errMsg).toContain(first.deviceId);
  });

  it("refuses a serial number on the platform in another application with 409 device_in_other_application", async () => {
    const sn = serial();
    await h.emulator.control.seedDevice({ sn, name: "theirs", applicationId: "1650000000000000999" });
    const response = await h.api.call("POST", "/devices", { snDevEUI: sn, name: "mine" });
    expect(response.status).toBe(409);
    expect(response.body.errCode).toBe("device_in_other_application");
  });

  it.each(["24000000001", "24000000000000001", "24000000000G", "", "24-000000-0001"])(
    "refuses the serial number %j with 400 invalid_parameter",
    async (sn) => {
      const response = await h.api.call("POST", "/devices", { snDevEUI: sn, name: "x" });
      expect(response.status).toBe(400);
      expect(response.body.errCode).toBe("invalid_parameter");
      expect(response.body.errMsg).toContain("snDevEUI");
    },
  );

  it("accepts 12 digits and 16 hex digits", async () => {
    await addDevice(h.api, "240000000012");
    await addDevice(h.api, "ac1f09fffe0a0b0c");
  });

  it("requires a name", async () => {
    for (const body of [{ snDevEUI: serial() }, { snDevEUI: serial(), name: "  " }]) {
      const response = await h.api.call("POST", "/devices", body);
      expect(response.status).toBe(400);
      expect(response.body.errMsg).toContain("name");
    }
  });

  it("accepts 20 tags and refuses 21, empty or repeated tags", async () => {
    const twenty = Array.from({ length: 20 }, (_, i) => `t${i}`);
    await addDevice(h.api, serial(), { tag: twenty });
    for (const tag of [[...twenty, "t20"], ["ok", ""], ["a", "a"], "not-an-array"]) {
      const response = await h.api.call("POST", "/devices", { snDevEUI: serial(), name: "x", tag });
      expect(response.status).toBe(400);
      expect(response.body.errCode).toBe("invalid_parameter");
    }
  });

  it("refuses a body that is not JSON", async () => {
    const response = await h.api.call("POST", "/devices", undefined, { rawBody: '{"snDevEUI": ' });
    expect(response.status).toBe(400);
    expect(response.body.errCode).toBe("invalid_parameter");
  });
});

describe("Query a Specific Device", () => {
  it("returns every Device field of the sensor", async () => {
    const sn = serial("24");
    const before = Date.now();
    const { deviceId } = await addDevice(h.api, sn, { description: "roof", project: "p1", tag: ["a", "b"] });
    const device = await h.api.ok<DeviceJson>("GET", `/devices/${deviceId}`);
    expect(device).toEqual({
      sn,
      devEUI: sn.padStart(16, "0"),
      name: `device-${sn}`,
      model: SENSOR.model,
      hardwareVersion: SENSOR.hardwareVersion,
      firmwareVersion: SENSOR.firmwareVersion,
      electricity: expect.any(Number),
      lastUpdateTime: expect.any(Number),
      application: { applicationId: "1650000000000000017", applicationName: "demo-application" },
      project: "p1",
      description: "roof",
      deviceId,
      connectStatus: "ONLINE",
      licenseStatus: "VALID",
      rpsStatus: "UNACTIVATED",
      deviceType: "COMMON",
      autopStatus: "DISABLE",
      tag: ["a", "b"],
    });
    expect(device.lastUpdateTime).toBeGreaterThanOrEqual(before - 1000);
    expect(device.lastUpdateTime).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("serves each model's deviceType, spelling the sub-device SUB-DEVICE as the platform's examples do", async () => {
    const cases = [
      [GATEWAY, "GATEWAY"],
      [CONTROLLER, "COMMON"],
      [SUB_DEVICE, "SUB-DEVICE"],
    ] as const;
    for (const [model, deviceType] of cases) {
      const { deviceId } = await addDevice(h.api, serial(model.serialPrefix));
      const device = await h.api.ok<DeviceJson>("GET", `/devices/${deviceId}`);
      expect(device).toMatchObject({ model: model.model, deviceType });
      expect(device.electricity === undefined).toBe(!model.hasBattery);
      expect(device.imei === undefined).toBe(!model.returnsImei);
    }
  });

  it("chooses the model by serial-number prefix ignoring case, and the sensor for unknown prefixes", async () => {
    const lower = await addDevice(h.api, serial("ac").toLowerCase());
    const other = await addDevice(h.api, serial("99"));
    expect((await h.api.ok<DeviceJson>("GET", `/devices/${lower.deviceId}`)).model).toBe(CONTROLLER.model);
    expect((await h.api.ok<DeviceJson>("GET", `/devices/${other.deviceId}`)).model).toBe(SENSOR.model);
  });

  it("answers 404 device_not_found for an unknown id and for a device of another application", async () => {
    const seeded = await h.emulator.control.seedDevice({
      sn: serial(),
      name: "x",
      applicationId: "1650000000000000999",
    });
    for (const id of ["1735999999999999999", seeded.deviceId]) {
      const response = await h.api.call("GET", `/devices/${id}`);
      expect(response.status).toBe(404);
      expect(response.body.errCode).toBe("device_not_found");
    }
  });

  it("answers 400 for a deviceId that is not a number", async () => {
    const response = await h.api.call("GET", "/devices/abc");
    expect(response.status).toBe(400);
    expect(response.body.errCode).toBe("invalid_parameter");
  });

  it("serves the same operations under v1.0 and V1.0", async () => {
    const { deviceId } = await addDevice(h.api, serial(), {});
    for (const version of ["v1.0", "V1.0"]) {
      const device = await h.api.ok<DeviceJson>("GET", `/devices/${deviceId}`, undefined, { version });
      expect(device.deviceId).toBe(deviceId);
    }
    const unknown = await h.api.call("GET", `/devices/${deviceId}`, undefined, { version: "v2" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errCode).toBe("route_not_found");
  });
});

describe("Update a Device Information", () => {
  it("sets the whole desired state: name, description and tags; absent description and tags are cleared", async () => {
    const { deviceId, sn } = await addDevice(h.api, serial("66"), {
      description: "d",
      tag: ["x"],
      project: "keep",
    });
    const result = await h.api.ok<DeviceResult>("PUT", "/devices", {
      deviceId,
      name: "renamed",
      tag: ["y", "z"],
    });
    expect(result).toMatchObject({ sn, deviceId });
    let device = await h.api.ok<DeviceJson>("GET", `/devices/${deviceId}`);
    expect(device).toMatchObject({ name: "renamed", tag: ["y", "z"], project: "keep" });
    expect(device.description).toBeUndefined();
    await h.api.ok("PUT", "/devices", { deviceId, name: "again", description: "back" });
    device = await h.api.ok<DeviceJson>("GET", `/devices/${deviceId}`);
    expect(device).toMatchObject({ name: "again", description: "back", tag: [] });
  });

  it("accepts deviceId as a JSON number, exactly, even above 2^53", async () => {
    const { deviceId } = await addDevice(h.api, serial());
    await h.api.ok("PUT", "/devices", undefined, {
      rawBody: `{"deviceId": ${deviceId}, "name": "by-number"}`,
    });
    expect((await h.api.ok<DeviceJson>("GET", `/devices/${deviceId}`)).name).toBe("by-number");
  });

  it("requires name, a known device and at most 20 tags", async () => {
    const { deviceId } = await addDevice(h.api, serial());
    const noName = await h.api.call("PUT", "/devices", { deviceId });
    const unknown = await h.api.call("PUT", "/devices", { deviceId: "1735999999999999999", name: "x" });
    const tooMany = await h.api.call("PUT", "/devices", {
      deviceId,
      name: "x",
      tag: Array.from({ length: 21 }, (_, i) => `${i}`),
    });
    const noId = await h.api.call("PUT", "/devices", { name: "x" });
    expect([noName.status, unknown.status, tooMany.status, noId.status]).toEqual([400, 404, 400, 400]);
    expect(unknown.body.errCode).toBe("device_not_found");
  });

  it("selects a TSL version the model has, and refuses one it does not", async () => {
    const { deviceId } = await addDevice(h.api, serial("24"));
    const bad = await h.api.call("PUT", "/devices", { deviceId, name: "x", tslVersion: "9.9.9" });
    expect(bad.status).toBe(400);
    expect(bad.body.errMsg).toContain("1.1.0");
    await h.api.ok("PUT", "/devices", { deviceId, name: "x", tslVersion: "1.1.0" });
    const spec = await h.api.ok<{ version: string }>("GET", `/devices/${deviceId}/thing-specification`);
    expect(spec.version).toBe("1.1.0");
  });
});

describe("Delete a Device", () => {
  it("deletes answering the serial number, then the device is gone (404) and its serial number can be added again", async () => {
    const sn = serial();
    const { deviceId } = await addDevice(h.api, sn);
    const deleted = await h.api.call("DELETE", `/devices/${deviceId}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ status: "Success", data: sn });
    expect((await h.api.call("GET", `/devices/${deviceId}`)).status).toBe(404);
    const again = await h.api.call("DELETE", `/devices/${deviceId}`);
    expect(again.status).toBe(404);
    expect(again.body.errCode).toBe("device_not_found");
    const readded = await addDevice(h.api, sn);
    expect(readded.deviceId).not.toBe(deviceId);
  });
});
