/**
 * The emulator's history, service-call and auto-provisioning operations over raw HTTP: what the
 * platform's reference shows, and the 400s this project decided on (emulator/README.md).
 */
import { describe, expect, it } from "vitest";
import { addDevice, serial, useEmulator, type DeviceJson } from "./support/fixtures";

const h = useEmulator();

interface HistoryData {
  list: { ts: number; properties: Record<string, unknown> }[];
  pageSize: number;
  nextPageKey?: string;
}

const history = (deviceId: string, query: string) =>
  h.api.call<HistoryData>("GET", `/devices/${deviceId}/properties/history${query}`);

describe("Query the Historical Data of Properties Reports", () => {
  it("pages with opaque keys that stay valid while reports arrive, and serves the same on every version", async () => {
    const { deviceId } = await addDevice(h.api, serial());
    for (const reportInterval of [60, 61, 62]) {
      await h.api.ok("PATCH", `/devices/${deviceId}/properties`, { properties: { reportInterval } });
    }
    const first = await history(deviceId, "?pageSize=2");
    expect(first.body.data.list.map((r) => r.properties)).toEqual([
      { reportInterval: 60 },
      { reportInterval: 61 },
    ]);
    const key = first.body.data.nextPageKey ?? "";
    expect(key).not.toMatch(/^\d+$/);
    await h.api.ok("PATCH", `/devices/${deviceId}/properties`, { properties: { reportInterval: 63 } });
    for (const version of ["v1", "v1.0", "V1.0"]) {
      const next = await h.api.call<HistoryData>(
        "GET",
        `/devices/${deviceId}/properties/history?pageSize=2&pageKey=${encodeURIComponent(key)}`,
        undefined,
        { version },
      );
      expect(next.body.data).toEqual({
        list: [
          { ts: expect.any(Number), properties: { reportInterval: 62 } },
          { ts: expect.any(Number), properties: { reportInterval: 63 } },
        ],
        pageSize: 2,
      });
    }
  });

  it.each([
    ["?pageSize=101", /pageSize: must be at most 100/],
    ["?pageSize=0", /pageSize: must be at least 1/],
    ["?startTime=20&endTime=10", /startTime 20 is after endTime 10/],
    ["?startTime=soon", /startTime: expected milliseconds/],
    ["?pageKey=bm90LWEta2V5", /pageKey "bm90LWEta2V5" is not a key this platform handed out/],
  ])("answers 400 invalid_parameter for %s", async (query, message) => {
    const { deviceId } = await addDevice(h.api, serial());
    const response = await history(deviceId, query);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: "Failed", errCode: "invalid_parameter" });
    expect(response.body.errMsg).toMatch(message);
  });

  it("answers device_not_found for another application's or an unknown device", async () => {
    const response = await history("1735999999999999999", "");
    expect(response.status).toBe(404);
    expect(response.body.errCode).toBe("device_not_found");
  });
});

describe("Invoke Device Services Asynchronously", () => {
  it.each([
    [
      { serviceId: "fly" },
      /fly is not a service of TSL model version 1\.0\.0 \(services: reboot, calibrate\)/,
    ],
    [{ serviceId: "calibrate", inputs: { gain: 1 } }, /inputs\.gain: not an input of the service calibrate/],
    [{ serviceId: "calibrate", inputs: { offset: 6 } }, /inputs\.offset/],
    [{ serviceId: "calibrate", inputs: [1] }, /inputs: expected an object/],
    [{ inputs: {} }, /serviceId/],
  ])("refuses %j with 400 invalid_parameter and records nothing", async (body, message) => {
    const { deviceId } = await addDevice(h.api, serial());
    const response = await h.api.call("POST", `/devices/${deviceId}/services/call`, body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: "Failed", errCode: "invalid_parameter", data: null });
    expect(response.body.errMsg).toMatch(message);
    expect(await h.emulator.control.serviceCalls(deviceId)).toEqual([]);
  });

  it("answers an accepted call without data and records it under its requestId with its inputs", async () => {
    const { deviceId } = await addDevice(h.api, serial("66"));
    const response = await h.api.call("POST", `/devices/${deviceId}/services/call`, {
      serviceId: "scanChannels",
      inputs: { durationSeconds: 30 },
    });
    expect(response.status).toBe(200);
    expect(response.body).not.toHaveProperty("data");
    const [call] = await h.emulator.control.serviceCalls(deviceId);
    expect(call).toMatchObject({ requestId: response.body.requestId, inputs: { durationSeconds: 30 } });
  });
});

describe("Add a Device with autoProvision", () => {
  const template = { version: "1", type: "TSL", properties: { reportInterval: 1200 } };

  it("takes v1's config object and v1.0's profile text", async () => {
    for (const [version, extra] of [
      ["v1", { config: template }],
      ["v1.0", { profile: JSON.stringify(template) }],
    ] as const) {
      const sn = serial();
      const response = await h.api.call<{ deviceId: string }>(
        "POST",
        "/devices",
        { snDevEUI: sn, name: "auto", autoProvision: true, ...extra },
        { version },
      );
      expect(response.status).toBe(200);
      const device = await h.api.ok<DeviceJson & { autopStatus: string }>(
        "GET",
        `/devices/${response.body.data.deviceId}`,
      );
      expect(device.autopStatus).toBe("SUCCESS");
    }
  });

  it.each([
    [{ autoProvision: true }, /a profile template is required when autoProvision is true/],
    [{ autoProvision: true, profile: "{not json" }, /profile: not JSON text/],
    [{ autoProvision: true, config: { type: "PROFILE", properties: {} } }, /only TSL profile templates/],
    [{ autoProvision: true, config: { type: "TSL" } }, /config\.properties/],
    [{ autoProvision: true, config: { properties: { temperature: 20 } } }, /temperature: read-only/],
    [{ autoProvision: "yes", config: template }, /autoProvision: expected true or false/],
  ])("refuses %j with 400 and adds nothing", async (extra, message) => {
    const sn = serial();
    const response = await h.api.call("POST", "/devices", { snDevEUI: sn, name: "bad", ...extra });
    expect(response.status).toBe(400);
    expect(response.body.errMsg).toMatch(message);
    expect((await h.emulator.control.state()).devices.some((d) => d.sn === sn)).toBe(false);
  });

  it("ignores a template without autoProvision: true (DISABLE, defaults)", async () => {
    const { deviceId } = await addDevice(h.api, serial(), { autoProvision: false, config: template });
    const device = await h.api.ok<{ autopStatus: string }>("GET", `/devices/${deviceId}`);
    expect(device.autopStatus).toBe("DISABLE");
    expect(await h.emulator.control.propertyReports(deviceId)).toEqual([]);
  });

  it("sends an autopStatus set with sendAs verbatim, in the query and in search results", async () => {
    const { deviceId } = await addDevice(h.api, serial());
    await h.emulator.control.changeDevice(deviceId, { sendAs: { autopStatus: "PAUSED" } });
    expect((await h.api.ok<{ autopStatus: string }>("GET", `/devices/${deviceId}`)).autopStatus).toBe(
      "PAUSED",
    );
    const page = await h.api.ok<{ content: { autopStatus: string }[] }>("POST", "/devices/search", {
      pageNumber: 1,
      pageSize: 10,
    });
    expect(page.content.map((d) => d.autopStatus)).toEqual(["PAUSED"]);
  });
});
