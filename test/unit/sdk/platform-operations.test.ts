/**
 * The SDK side of the platform operations of issue 18, against a scripted platform: request bodies
 * and query strings exactly as sent, answers parsed losslessly, and the schemas' new fields.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  SerialNumberMismatchError,
  checkServiceCall,
  clearTokenCache,
  deviceFilterSchema,
  deviceSchema,
  propertyHistoryPageSchema,
  thingModelSchema,
  type ThingModel,
} from "../../../sdk";
import { FakePlatform, ok } from "./support/fake-platform";

const BIG = "9007199254740993"; // 2^53 + 1
const PREFIX = "/device/openapi/v1";
let platform: FakePlatform;

beforeEach(() => {
  clearTokenCache();
  platform = new FakePlatform();
});
afterEach(() => platform.close());

const TEMPLATE = { version: "1", type: "TSL", properties: { counter: BigInt(BIG), interval: 600 } };

describe("schemas", () => {
  it("reads autopStatus as an open enum on devices, and filters on the documented values only", () => {
    expect(deviceSchema.parse({ deviceId: "1", autopStatus: "WAITING" }).autopStatus).toBe("WAITING");
    expect(deviceSchema.parse({ deviceId: "1", autopStatus: "PAUSED" }).autopStatus).toBe("PAUSED");
    expect(deviceSchema.parse({ deviceId: "1", autopStatus: null }).autopStatus).toBeUndefined();
    expect(deviceFilterSchema.parse({ autopStatus: ["SUCCESS", "DISABLE"] }).autopStatus).toEqual([
      "SUCCESS",
      "DISABLE",
    ]);
    expect(deviceFilterSchema.safeParse({ autopStatus: ["PAUSED"] }).success).toBe(false);
  });

  it("accepts hidden on TSL properties, parameters, events and services", () => {
    const parameter = { id: "p", hidden: true, dataSpec: { dataType: "INT" } };
    const model = thingModelSchema.parse({
      properties: [{ id: "a", accessMode: "RW", hidden: true }],
      events: [{ id: "e", hidden: false, outputs: [parameter] }],
      services: [{ id: "s", hidden: true, inputs: [parameter], outputs: [] }],
    });
    expect(model.properties[0]?.hidden).toBe(true);
    expect(model.events[0]?.hidden).toBe(false);
    expect(model.services[0]?.hidden).toBe(true);
    expect(model.services[0]?.inputs[0]?.hidden).toBe(true);
    expect(thingModelSchema.safeParse({ properties: [{ id: "a", hidden: "yes" }] }).success).toBe(false);
  });

  it("reads a history page: ts as a number (digits too), an empty nextPageKey as the last page", () => {
    const page = propertyHistoryPageSchema.parse({
      list: [{ ts: "1700000000000", properties: { a: 1 } }, { ts: 1700000000001 }],
      pageSize: 2,
      nextPageKey: "",
    });
    expect(page).toEqual({
      list: [
        { ts: 1700000000000, properties: { a: 1 } },
        { ts: 1700000000001, properties: {} },
      ],
      pageSize: 2,
      nextPageKey: undefined,
    });
    expect(propertyHistoryPageSchema.safeParse({ list: [{ ts: BIG }] }).success).toBe(false);
    expect(propertyHistoryPageSchema.parse({ list: null }).list).toEqual([]);
  });
});

describe("Add a Device with a profile template", () => {
  const answer = () => ok({ sn: "240000A10001", deviceId: BIG });

  it("sends it as config (a JSON object) on v1, with 64-bit values exact", async () => {
    platform.on(`POST ${PREFIX}/devices`, answer);
    await platform
      .client()
      .addDevice({ snDevEUI: "240000A10001", name: "a", autoProvision: true, config: TEMPLATE });
    const body = platform.requests.find((r) => r.path === `${PREFIX}/devices`)?.body;
    expect(body).toBe(
      `{"snDevEUI":"240000A10001","name":"a","autoProvision":true,` +
        `"config":{"version":"1","type":"TSL","properties":{"counter":${BIG},"interval":600}}}`,
    );
  });

  it("sends it as profile (its JSON text) on v1.0", async () => {
    platform.on(`POST /device/openapi/v1.0/devices`, answer);
    await platform
      .client({ apiVersion: "v1.0" })
      .addDevice({ snDevEUI: "240000A10001", name: "a", autoProvision: true, config: TEMPLATE });
    const body = JSON.parse(
      platform.requests.find((r) => r.path.endsWith("/devices"))?.body ?? "{}",
    ) as Record<string, unknown>;
    expect(body).toEqual({
      snDevEUI: "240000A10001",
      name: "a",
      autoProvision: true,
      profile: `{"version":"1","type":"TSL","properties":{"counter":${BIG},"interval":600}}`,
    });
  });
});

describe("Delete a Device's answer", () => {
  it("resolves with the serial number the platform answers, or undefined when it answers none", async () => {
    platform.on(`DELETE ${PREFIX}/devices/1`, () => ok("240000A10001"));
    platform.on(`DELETE ${PREFIX}/devices/2`, () => ok(null));
    const client = platform.client();
    expect(await client.deleteDevice("1")).toBe("240000A10001");
    expect(await client.deleteDevice("1", { sn: "240000a10001" })).toBe("240000A10001");
    expect(await client.deleteDevice("2", { sn: "240000A10002" })).toBeUndefined();
  });

  it("fails with serial_number_mismatch, naming both serial numbers and the requestId", async () => {
    platform.on(`DELETE ${PREFIX}/devices/3`, () => ok("240000A10009", "r-del"));
    const error = await platform
      .client()
      .deleteDevice("3", { sn: "240000A10003" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SerialNumberMismatchError);
    expect(error).toMatchObject({ code: "serial_number_mismatch", requestId: "r-del", attempts: 1 });
    expect((error as Error).message).toContain("answered serial number 240000A10009, not 240000A10003");
    expect(platform.count(`DELETE ${PREFIX}/devices/3`)).toBe(1);
  });
});

describe("propertyHistory on the wire", () => {
  it("sends the window and page size on every page and the previous nextPageKey; keeps values exact", async () => {
    const path = `${PREFIX}/devices/7/properties/history`;
    platform.on(`GET ${path}?pageSize=2&startTime=10&endTime=20`, () => ({
      status: 200,
      body: `{"status":"Success","requestId":"r","data":{"list":[{"ts":11,"properties":{"count":${BIG}}},{"ts":12,"properties":{}}],"pageSize":2,"nextPageKey":"k/1+"}}`,
    }));
    platform.on(`GET ${path}?pageSize=2&startTime=10&endTime=20&pageKey=k%2F1%2B`, () =>
      ok({ list: [{ ts: 13, properties: { a: true } }], pageSize: 2 }),
    );
    const reports = await platform
      .client()
      .propertyHistory("7", { startTime: 10, endTime: 20, pageSize: 2 })
      .toArray();
    expect(reports).toEqual([
      { ts: 11, properties: { count: BIG } },
      { ts: 12, properties: {} },
      { ts: 13, properties: { a: true } },
    ]);
    expect(platform.requests.filter((r) => r.path.startsWith(path))).toHaveLength(2);
  });
});

describe("callService on the wire", () => {
  const model = thingModelSchema.parse({
    services: [
      {
        id: "set",
        inputs: [
          { id: "counter", dataSpec: { dataType: "LONG" } },
          { id: "mode", dataSpec: { dataType: "ENUM", mapping: { "1": "eco", "2": "boost" } } },
          { id: "window", dataSpec: { dataType: "STRUCT" } },
          {
            id: "window.start",
            dataSpec: { dataType: "INT", parentId: "window", validator: { required: true } },
          },
          { id: "window.end", dataSpec: { dataType: "INT", parentId: "window" } },
        ],
        outputs: [],
      },
    ],
  }) as ThingModel;

  it("sends { serviceId, inputs } with LONG digits as an exact number and STRUCT children by full id", async () => {
    platform.on(`POST ${PREFIX}/devices/7/services/call`, () => ({
      status: 200,
      body: { status: "Success", requestId: "r-call" },
    }));
    const result = await platform
      .client()
      .callService("7", "set", { counter: BIG, mode: "2", window: { start: 1, end: 5 } }, { model });
    expect(result).toEqual({ requestId: "r-call" });
    expect(platform.requests.at(-1)?.body).toBe(
      `{"serviceId":"set","inputs":{"counter":${BIG},"mode":2,"window":{"window.start":1,"window.end":5}}}`,
    );
  });

  it("checks STRUCT inputs by the same rules as configuration values", () => {
    const { problems } = checkServiceCall(
      model,
      "set",
      { mode: 3, window: { end: 5, other: 1 } },
      "device 7",
    );
    expect(problems).toEqual([
      {
        path: "inputs.mode",
        message: expect.stringContaining("must be one of the ENUM mapping keys 1 (eco), 2 (boost)"),
      },
      {
        path: "inputs.window.other",
        message: expect.stringContaining("is not a field of the STRUCT window"),
      },
      {
        path: "inputs.window.start",
        message: "is required (TSL validator required of device 7), got no value",
      },
    ]);
    expect(checkServiceCall(model, "set", { "window.start": 1 }, "device 7").problems).toEqual([
      {
        path: "inputs.window.start",
        message: "is a field of the STRUCT input window; give it inside that object",
      },
    ]);
  });
});
