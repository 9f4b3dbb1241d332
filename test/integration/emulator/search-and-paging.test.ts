import { beforeAll, describe, expect, it } from "vitest";
import { createApp, startEmulator, type RunningEmulator } from "../../../emulator";
import { PlatformApi } from "./support/platform-api";
import { addDevice, type DeviceJson, type Page } from "./support/fixtures";

// One fleet for the whole file: searches only read it.
let emulator: RunningEmulator;
let api: PlatformApi;
const ids: Record<string, string> = {};

async function search(body: Record<string, unknown>): Promise<Page<DeviceJson>> {
  return api.ok<Page<DeviceJson>>("POST", "/devices/search", { pageNumber: 1, pageSize: 100, ...body });
}

async function names(body: Record<string, unknown>): Promise<string[]> {
  return (await search(body)).content.map((d) => d.name);
}

beforeAll(async () => {
  emulator = await startEmulator();
  api = new PlatformApi(emulator.url);
  const fleet: [string, string, Record<string, unknown>][] = [
    ["alpha", "240000000000A001", { tag: ["roof", "north"], description: "Roof sensor" }],
    ["bravo", "240000000000A002", { tag: ["roof"] }],
    ["charlie", "240000000000A003", { tag: ["cellar"], description: "cellar probe" }],
    ["delta", "660000000000B001", { tag: ["core"] }],
    ["echo", "660000000000B002", {}],
    ["foxtrot", "AC00000000000C01", { project: "hvac" }],
    ["golf", "5B00000000000D01", { tag: ["north"] }],
  ];
  for (const [name, sn, extra] of fleet) ids[name] = (await addDevice(api, sn, { name, ...extra })).deviceId;
  const byName = (name: string): string => ids[name] ?? "";
  await emulator.control.changeDevice(byName("alpha"), { electricity: 10 });
  await emulator.control.changeDevice(byName("bravo"), { electricity: 50, connectStatus: "OFFLINE" });
  await emulator.control.changeDevice(byName("charlie"), { electricity: 90, connectStatus: "DISCONNECT" });
  await emulator.control.changeDevice(byName("golf"), {
    electricity: 50,
    licenseStatus: "INVALID",
    rpsStatus: "ENABLED",
  });
  await emulator.control.seedDevice({
    sn: "240000000000F001",
    name: "other-app",
    applicationId: "1650000000000000999",
  });
  return () => emulator.stop();
});

describe("Search Specific Devices: results", () => {
  it("lists the application's devices only, in creation order, as Device_Details", async () => {
    const page = await search({});
    expect(page).toMatchObject({ pageNumber: 1, pageSize: 100, total: 7 });
    expect(page.content.map((d) => d.name)).toEqual([
      "alpha",
      "bravo",
      "charlie",
      "delta",
      "echo",
      "foxtrot",
      "golf",
    ]);
    const gateway = page.content.find((d) => d.name === "delta");
    expect(gateway).toMatchObject({
      mac: expect.stringMatching(/^([0-9A-F]{2}:){5}[0-9A-F]{2}$/),
      wlanMac: expect.any(String),
    });
    expect(gateway?.rpsStatus).toBe("DISABLED");
  });

  it("uses ENABLED/DISABLED for rpsStatus and SUB_DEVICE for the sub-device", async () => {
    const golf = (await search({ name: "golf" })).content[0];
    expect(golf).toMatchObject({ rpsStatus: "ENABLED", deviceType: "SUB_DEVICE", licenseStatus: "INVALID" });
  });
});

describe("Search Specific Devices: filters", () => {
  it.each([
    [{ sn: "a00" }, ["alpha", "bravo", "charlie"]],
    [{ sn: "240000000000A002" }, ["bravo"]],
    [{ name: "ALPH" }, ["alpha"]],
    [{ description: "roof" }, ["alpha"]],
    [{ model: "LinkHub" }, ["delta", "echo"]],
    [{ hardwareVersion: "AC-HW" }, ["foxtrot"]],
    [{ firmwareVersion: "5.2.1" }, ["delta", "echo"]],
    [{ devEUI: "5B00000000000D01" }, ["golf"]],
  ])("text filter %j matches a case-insensitive substring", async (filter, expected) => {
    expect(await names(filter)).toEqual(expected);
  });

  it("filters by imei, mac and wlanMac of a device", async () => {
    const delta = (await search({ name: "delta" })).content[0] as DeviceJson;
    expect(await names({ imei: delta.imei })).toEqual(["delta"]);
    expect(await names({ mac: delta.mac })).toEqual(["delta"]);
    expect(await names({ wlanMac: delta.wlanMac })).toEqual(["delta"]);
  });

  it.each([
    [{ connectStatus: ["OFFLINE", "DISCONNECT"] }, ["bravo", "charlie"]],
    [{ connectStatus: ["ONLINE"], deviceType: ["GATEWAY"] }, ["delta", "echo"]],
    [{ deviceType: ["SUB_DEVICE"] }, ["golf"]],
    [{ deviceType: ["SUB-DEVICE", "GATEWAY"] }, ["delta", "echo", "golf"]],
    [{ licenseStatus: ["INVALID"] }, ["golf"]],
    [{ rpsStatus: ["ENABLED"] }, ["golf"]],
    [{ rpsStatus: ["DISABLED"], deviceType: ["COMMON"] }, ["alpha", "bravo", "charlie", "foxtrot"]],
    [{ tag: ["north"] }, ["alpha", "golf"]],
    [{ tag: ["roof", "core"] }, ["alpha", "bravo", "delta"]],
    [{ connectStatus: [] }, ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf"]],
  ])("list filter %j matches any listed value", async (filter, expected) => {
    expect(await names(filter)).toEqual(expected);
  });

  it.each([
    [{ electricityMin: 50 }, ["bravo", "charlie", "golf"]],
    [{ electricityMax: 50 }, ["alpha", "bravo", "golf"]],
    [{ electricityMin: 11, electricityMax: 89 }, ["bravo", "golf"]],
  ])("electricity bounds %j are inclusive and skip devices without a battery", async (filter, expected) => {
    expect(await names(filter)).toEqual(expected);
  });

  it("refuses unknown enumeration values", async () => {
    const response = await api.call("POST", "/devices/search", {
      pageNumber: 1,
      pageSize: 10,
      connectStatus: ["AWAY"],
    });
    expect(response.status).toBe(400);
    expect(response.body.errCode).toBe("invalid_parameter");
  });
});

describe("Search Specific Devices: sorts", () => {
  it("sorts by name desc and asc", async () => {
    expect(
      await names({ sorts: [{ property: "name", direction: "desc" }], deviceType: ["GATEWAY"] }),
    ).toEqual(["echo", "delta"]);
    expect(await names({ sorts: [{ property: "name", direction: "asc" }], deviceType: ["GATEWAY"] })).toEqual(
      ["delta", "echo"],
    );
  });

  it("sorts by electricity, devices without a value last, and breaks ties with the next sort", async () => {
    const sorted = await names({
      sorts: [
        { property: "electricity", direction: "desc" },
        { property: "name", direction: "desc" },
      ],
    });
    expect(sorted).toEqual(["charlie", "golf", "bravo", "alpha", "foxtrot", "echo", "delta"]);
  });

  it("sorts by deviceId numerically and accepts upper-case directions", async () => {
    const sorted = await names({ sorts: [{ property: "deviceId", direction: "DESC" }] });
    expect(sorted).toEqual(["golf", "foxtrot", "echo", "delta", "charlie", "bravo", "alpha"]);
  });

  it.each([
    "connectStatus",
    "deviceType",
    "model",
    "sn",
    "lastUpdateTime",
    "tag",
    "rpsStatus",
    "application",
  ])("accepts the device field %s as a sort property", async (property) => {
    expect((await search({ sorts: [{ property, direction: "asc" }] })).total).toBe(7);
  });

  it("refuses an unknown sort property or direction", async () => {
    for (const sorts of [
      [{ property: "colour", direction: "asc" }],
      [{ property: "name", direction: "up" }],
    ]) {
      const response = await api.call("POST", "/devices/search", { pageNumber: 1, pageSize: 10, sorts });
      expect(response.status).toBe(400);
    }
  });
});

describe("Search Specific Devices: paging", () => {
  it("counts pages from 1 and returns an empty page past the end", async () => {
    const pages = await Promise.all([1, 2, 3, 4, 5].map((pageNumber) => search({ pageNumber, pageSize: 2 })));
    expect(pages.map((p) => p.content.length)).toEqual([2, 2, 2, 1, 0]);
    expect(pages.every((p) => p.total === 7 && p.pageSize === 2)).toBe(true);
    expect(pages.map((p) => p.pageNumber)).toEqual([1, 2, 3, 4, 5]);
    expect(pages.flatMap((p) => p.content.map((d) => d.name))).toEqual(await names({}));
  });

  it.each([
    [{ pageNumber: 1, pageSize: 101 }],
    [{ pageNumber: 0, pageSize: 10 }],
    [{ pageNumber: 1, pageSize: 0 }],
    [{ pageNumber: 1.5, pageSize: 10 }],
    [{ pageSize: 10 }],
    [{ pageNumber: 1 }],
  ])("refuses %j with 400", async (body) => {
    const response = await api.call("POST", "/devices/search", body);
    expect(response.status).toBe(400);
    expect(response.body.errCode).toBe("invalid_parameter");
  });

  it("accepts pageSize 100", async () => {
    expect((await search({ pageSize: 100 })).pageSize).toBe(100);
  });
});

describe("maxPageSize: a platform that pages smaller than asked", () => {
  it("serves at most maxPageSize records a page of either search, and answers with the size it used", async () => {
    const small = await startEmulator({ maxPageSize: 3 });
    try {
      const smallApi = new PlatformApi(small.url);
      for (let i = 0; i < 7; i += 1) await addDevice(smallApi, `24000000000BB00${i}`, { name: `d${i}` });
      const devicePages = await Promise.all(
        [1, 2, 3, 4].map((pageNumber) =>
          smallApi.ok<Page<DeviceJson>>("POST", "/devices/search", { pageNumber, pageSize: 100 }),
        ),
      );
      expect(devicePages.map((p) => [p.pageSize, p.total, p.content.length])).toEqual([
        [3, 7, 3],
        [3, 7, 3],
        [3, 7, 1],
        [3, 7, 0],
      ]);
      expect(devicePages.flatMap((p) => p.content.map((d) => d.name))).toEqual([
        "d0",
        "d1",
        "d2",
        "d3",
        "d4",
        "d5",
        "d6",
      ]);
      // Asking for less than the limit is served as asked.
      const two = await smallApi.ok<Page<DeviceJson>>("POST", "/devices/search", {
        pageNumber: 1,
        pageSize: 2,
      });
      expect([two.pageSize, two.content.length]).toEqual([2, 2]);
      for (let i = 0; i < 4; i += 1) {
        await smallApi.ok("POST", "/rps/profile", {
          sn: `AC00000000000B0${i}`,
          profileUrl: "https://rps.example.com/p",
        });
      }
      const rps = await smallApi.ok<Page<unknown>>("POST", "/rps/search", { pageNumber: 1, pageSize: 100 });
      expect([rps.pageSize, rps.total, rps.content.length]).toEqual([3, 4, 3]);
    } finally {
      await small.stop();
    }
  });

  it("is 100 by default", async () => {
    expect((await search({ pageSize: 100 })).pageSize).toBe(100);
  });

  it("refuses a limit outside 1–100", () => {
    expect(() => createApp({ maxPageSize: 0 })).toThrow(/maxPageSize must be an integer from 1 to 100/);
    expect(() => createApp({ maxPageSize: 101 })).toThrow(/maxPageSize/);
  });
});
