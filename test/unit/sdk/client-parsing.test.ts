import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ConfigurationError,
  ConflictError,
  NotFoundError,
  ResponseShapeError,
  ValidationError,
  clearTokenCache,
  type DevicePlatformError,
} from "../../../sdk";
import { FakePlatform, failed, ok } from "./support/fake-platform";

const BIG = "9007199254740993"; // 2^53 + 1: a double would read it as ...992
const PREFIX = "/device/openapi/v1";
let platform: FakePlatform;

beforeEach(() => {
  clearTokenCache();
  platform = new FakePlatform();
});
afterEach(() => platform.close());

const raw = (text: string) => () => ({ status: 200, body: text });

describe("lossless 64-bit values", () => {
  it("keeps ids exact when the platform sends them as JSON numbers", async () => {
    platform.on(
      `GET ${PREFIX}/devices/${BIG}`,
      raw(
        `{"status":"Success","requestId":"r","data":{"deviceId":${BIG},"application":{"applicationId":18446744073709551615}}}`,
      ),
    );
    const device = await platform.client().getDevice(BIG);
    expect(device.deviceId).toBe(BIG);
    expect(device.application?.applicationId).toBe("18446744073709551615");
  });

  it("keeps LONG property values exact and sends bigint values as exact numbers", async () => {
    platform.on(
      `GET ${PREFIX}/devices/${BIG}/config`,
      raw(`{"status":"Success","data":{"properties":{"counter":12345678901234567891,"interval":60}}}`),
    );
    platform.on(`PATCH ${PREFIX}/devices/${BIG}/properties`, (request) => ({
      status: 200,
      body: `{"status":"Success","data":${request.body}}`,
    }));
    const client = platform.client();
    expect(await client.getDeviceConfig(BIG)).toEqual({
      properties: { counter: "12345678901234567891", interval: 60 },
    });
    const applied = await client.updateProperties(BIG, {
      counter: 12345678901234567892n,
      nested: { on: true },
    });
    expect(platform.requests.at(-1)?.body).toBe(
      '{"properties":{"counter":12345678901234567892,"nested":{"on":true}}}',
    );
    expect(applied.properties).toEqual({ counter: "12345678901234567892", nested: { on: true } });
  });

  it("sends ids as strings of digits, or as exact JSON numbers when asked", async () => {
    platform.on(`PUT ${PREFIX}/devices`, () => ok({ deviceId: BIG, sn: "24E1240000000001" }));
    await platform.client().updateDevice({ deviceId: BIG, name: "n" });
    expect(platform.requests.at(-1)?.body).toBe(`{"deviceId":"${BIG}","name":"n"}`);
    await platform.client({ sendIdsAsNumbers: true }).updateDevice({ deviceId: BIG, name: "n" });
    expect(platform.requests.at(-1)?.body).toBe(`{"deviceId":${BIG},"name":"n"}`);
  });

  it("returns task ids exact", async () => {
    platform.on(
      `POST ${PREFIX}/tasks`,
      raw(
        `{"status":"Success","data":{"deviceTaskRelations":[{"deviceId":${BIG},"taskId":9007199254740995}]}}`,
      ),
    );
    const relations = await platform
      .client()
      .createConfigTasks({ type: "TSL", deviceIds: [BIG], config: { properties: {} } });
    expect(relations).toEqual([{ deviceId: BIG, taskId: "9007199254740995" }]);
  });
});

describe("response checking", () => {
  it("treats status Failed with HTTP 200 as an error", async () => {
    platform.on(`POST ${PREFIX}/devices`, () => ({
      status: 200,
      body: {
        status: "Failed",
        requestId: "r-200",
        errCode: "device_already_exists",
        errMsg: "dup",
        data: null,
      },
    }));
    const error = (await platform
      .client()
      .addDevice({ snDevEUI: "24E1240000000001", name: "a" })
      .catch((e: unknown) => e)) as DevicePlatformError;
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.message).toBe(
      "POST /device/openapi/v1/devices failed: HTTP 200 device_already_exists: dup (requestId r-200, 1 attempt)",
    );
    expect(platform.count(`POST ${PREFIX}/devices`)).toBe(1);
  });

  it("normalises SUB-DEVICE and accepts both rpsStatus families", async () => {
    platform.on(`GET ${PREFIX}/devices/1`, () =>
      ok({ deviceId: 1, deviceType: "SUB-DEVICE", rpsStatus: "UNACTIVATED" }),
    );
    platform.on(`POST ${PREFIX}/devices/search`, () =>
      ok({
        pageSize: 100,
        pageNumber: 1,
        total: 1,
        content: [{ deviceId: "1", deviceType: "SUB-DEVICE", rpsStatus: "ENABLED" }],
      }),
    );
    const client = platform.client();
    expect(await client.getDevice("1")).toEqual({
      deviceId: "1",
      deviceType: "SUB_DEVICE",
      rpsStatus: "UNACTIVATED",
    });
    expect((await client.searchDevices()).content[0]).toMatchObject({
      deviceType: "SUB_DEVICE",
      rpsStatus: "ENABLED",
    });
  });

  it("a search page with one device of unknown statuses parses whole, the odd values kept as sent", async () => {
    const device = (i: number, extra: Record<string, unknown> = {}) => ({
      deviceId: String(i),
      sn: `24E124000000000${i}`,
      rpsStatus: "DISABLED",
      connectStatus: "ONLINE",
      licenseStatus: "VALID",
      deviceType: "COMMON",
      ...extra,
    });
    platform.on(`POST ${PREFIX}/devices/search`, () =>
      ok({
        pageSize: 100,
        pageNumber: 1,
        total: 3,
        content: [
          device(1),
          // The API document mentions a misspelling of ENABLED; the rest are values it never lists.
          device(2, {
            rpsStatus: "ENABELD",
            connectStatus: "SLEEP",
            licenseStatus: "TRIAL",
            deviceType: "HUB",
          }),
          device(3),
        ],
      }),
    );
    const devices = await platform.client().listDevices().toArray();
    expect(
      devices.map((d) => [d.deviceId, d.rpsStatus, d.connectStatus, d.licenseStatus, d.deviceType]),
    ).toEqual([
      ["1", "DISABLED", "ONLINE", "VALID", "COMMON"],
      ["2", "ENABELD", "SLEEP", "TRIAL", "HUB"],
      ["3", "DISABLED", "ONLINE", "VALID", "COMMON"],
    ]);
  });

  it("reports a success envelope whose data has the wrong shape as ResponseShapeError naming the field", async () => {
    platform.on(`GET ${PREFIX}/devices/1`, () => ok({ deviceId: "x1", sn: 5 }, "r-shape"));
    const shape = (await platform
      .client()
      .getDevice("1")
      .catch((e: unknown) => e)) as DevicePlatformError;
    expect(shape).toBeInstanceOf(ResponseShapeError);
    expect(shape.code).toBe("unexpected_response");
    expect(shape.message).toMatch(
      /HTTP 200 \(unexpected response shape: data\.deviceId: .*data\.sn: .*\) \(requestId r-shape/,
    );
    expect(shape.attempts).toBe(1);
    // The platform said Success: performed, its answer unknown (a write's result is then unknown).
    expect(shape.outcomeUnknown).toBe(true);
  });

  it("reports a 2xx answer that is not the platform's envelope as ConfigurationError naming the base URL", async () => {
    platform.on(`GET ${PREFIX}/devices/2`, raw("<html>oops</html>"));
    platform.on(`GET ${PREFIX}/devices/3`, () => ({ status: 200, body: { data: {} } }));
    platform.on(`GET ${PREFIX}/devices/4`, raw(""));
    platform.on(`GET ${PREFIX}/devices/5`, () => ({ status: 200, body: { status: "Done", data: {} } }));
    const client = platform.client();
    const cases: [string, string][] = [
      ["2", '"<html>oops</html>"'],
      ["3", '"{"data":{}}"'],
      ["4", "empty body"],
      ["5", '"{"status":"Done","data":{}}"'],
    ];
    for (const [id, excerpt] of cases) {
      const error = (await client.getDevice(id).catch((e: unknown) => e)) as DevicePlatformError;
      expect(error, id).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe(
        `GET ${PREFIX}/devices/${id} failed: HTTP 200 (not the platform's response: ${excerpt}): ` +
          `${platform.origin} does not look like the device platform's base URL; check devplatform:baseUrl ` +
          `(DEVPLATFORM_BASE_URL) and devplatform:apiVersion (the client's baseUrl and apiVersion options) (1 attempt)`,
      );
    }
    expect(platform.count(`GET ${PREFIX}/devices/2`)).toBe(1);
  });

  it("accepts an empty 2xx body where the operation returns nothing (DELETE)", async () => {
    platform.on(`DELETE ${PREFIX}/devices/6`, () => ({ status: 204, body: "" }));
    await expect(platform.client().deleteDevice("6")).resolves.toBeUndefined();
  });

  it("refuses bad input before sending anything", async () => {
    const client = platform.client();
    await expect(client.getDevice("12; DROP")).rejects.toBeInstanceOf(ValidationError);
    await expect(
      client.addDevice({ snDevEUI: "1", name: "a", tag: Array.from({ length: 21 }, (_, i) => `t${i}`) }),
    ).rejects.toThrow(/at most 20 tags/);
    await expect(
      client.createConfigTasks({ type: "TSL", deviceIds: [], config: { properties: {} } }),
    ).rejects.toThrow(/deviceIds must not be empty/);
    expect(platform.requests).toHaveLength(0);
  });

  it("maps 404 device_not_found and rps_record_not_found to NotFoundError, saying which", async () => {
    platform.on(`DELETE ${PREFIX}/devices/5`, () => failed(404, "device_not_found", "Device 5 not found"));
    platform.on(`DELETE ${PREFIX}/rps/24E1%2F0002`, () => failed(404, "rps_record_not_found", "none"));
    platform.on(`DELETE ${PREFIX}/rps/24E1%2F0001`, () => ok("success"));
    const client = platform.client();
    await expect(client.deleteDevice("5")).rejects.toMatchObject({ code: "not_found", resource: "device" });
    const record = await client.deleteRpsProfile("24E1/0002").catch((e: unknown) => e);
    expect(record).toBeInstanceOf(NotFoundError);
    expect(record).toMatchObject({ resource: "rps_record", errCode: "rps_record_not_found" });
    await expect(client.deleteRpsProfile("24E1/0001")).resolves.toBeUndefined();
  });

  it("never reads a 404 from the wrong place as gone: route_not_found, other codes, HTML", async () => {
    platform.on(`GET ${PREFIX}/devices/7`, () => failed(404, "route_not_found", "no route"));
    platform.on(`GET ${PREFIX}/devices/8`, () => failed(404, "resource_not_found", "?"));
    platform.on(`GET ${PREFIX}/devices/9`, () => ({ status: 404, body: "<html>Not Found</html>" }));
    const client = platform.client();
    for (const id of ["7", "8", "9"]) {
      const error = await client.getDevice(id).catch((e: unknown) => e);
      expect(error, id).toBeInstanceOf(ConfigurationError);
      expect(error).not.toBeInstanceOf(NotFoundError);
      expect((error as DevicePlatformError).message).toContain(`${platform.origin} does not look like`);
    }
    expect(platform.count(`GET ${PREFIX}/devices/9`)).toBe(1);
  });
});

describe("paging and lookups", () => {
  function pagedSearch(total: number, snOf: (i: number) => string) {
    platform.on(`POST ${PREFIX}/devices/search`, (request) => {
      const { pageSize, pageNumber } = JSON.parse(request.body) as { pageSize: number; pageNumber: number };
      const start = (pageNumber - 1) * pageSize;
      const content = Array.from({ length: Math.max(0, Math.min(pageSize, total - start)) }, (_, k) => ({
        deviceId: String(start + k + 1),
        sn: snOf(start + k),
      }));
      return ok({ pageSize, pageNumber, total, content });
    });
  }

  it("listDevices walks every page from 1 with 100 records each", async () => {
    pagedSearch(250, (i) => `SN${i}`);
    const devices = await platform
      .client()
      .listDevices({ connectStatus: ["ONLINE"] })
      .toArray();
    expect(devices).toHaveLength(250);
    const bodies = platform.requests
      .filter((r) => r.path.endsWith("/search"))
      .map((r) => JSON.parse(r.body) as unknown);
    expect(bodies).toEqual(
      [1, 2, 3].map((pageNumber) => ({ connectStatus: ["ONLINE"], pageSize: 100, pageNumber })),
    );
  });

  it("findDeviceBySn returns the exact match among partial matches, or undefined", async () => {
    pagedSearch(120, (i) => (i === 110 ? "24e1240000000001" : `24E12400000000010${i}`));
    const client = platform.client();
    expect(await client.findDeviceBySn("24E1240000000001")).toMatchObject({ deviceId: "111" });
    platform.on(`POST ${PREFIX}/devices/search`, () =>
      ok({ pageSize: 100, pageNumber: 1, total: 0, content: [] }),
    );
    expect(await client.findDeviceBySn("24E1240000000002")).toBeUndefined();
  });

  it("listRpsProfiles and the v1.0 path form", async () => {
    platform.on("POST /device/openapi/v1.0/rps/search", () =>
      ok({
        pageSize: 100,
        pageNumber: 1,
        total: 1,
        content: [{ sn: "24E1240000000001", profileUrl: "https://p" }],
      }),
    );
    const records = await platform.client({ apiVersion: "v1.0" }).listRpsProfiles().toArray();
    expect(records).toEqual([{ sn: "24E1240000000001", profileUrl: "https://p" }]);
  });
});
