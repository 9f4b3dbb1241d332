import { describe, expect, it } from "vitest";
import {
  CONNECT_STATUSES,
  deviceDetailsSchema,
  deviceSearchQuerySchema,
  isKnownValue,
  unrecognizedValue,
  type ConnectStatus,
  deviceSchema,
  deviceSearchResultSchema,
  taskCreateResultSchema,
  thingModelSchema,
  tokenDetailsSchema,
} from "../../../sdk";
import { parseLosslessJson } from "../../../sdk/lossless-json";

describe("device schemas", () => {
  it("normalises SUB-DEVICE to SUB_DEVICE and keeps the documented spelling", () => {
    expect(deviceSchema.parse({ deviceId: "1", deviceType: "SUB-DEVICE" }).deviceType).toBe("SUB_DEVICE");
    expect(deviceSchema.parse({ deviceId: "1", deviceType: "SUB_DEVICE" }).deviceType).toBe("SUB_DEVICE");
  });

  it("keeps an unknown deviceType, rpsStatus, connectStatus or licenseStatus as the string sent", () => {
    const device = deviceDetailsSchema.parse({
      deviceId: "1",
      deviceType: "TOASTER",
      rpsStatus: "ENABLD",
      connectStatus: "SLEEPING",
      licenseStatus: 3,
    });
    expect(device).toMatchObject({
      deviceType: "TOASTER",
      rpsStatus: "ENABLD",
      connectStatus: "SLEEPING",
      licenseStatus: "3",
    });
  });

  it("keeps the known values typed: a switch over them reaches default only with an unknown one", () => {
    const words = (status: ConnectStatus): string => {
      switch (status) {
        case "ONLINE":
          return "up";
        case "OFFLINE":
        case "DISCONNECT":
          return "down";
        default:
          // Compiles only because every documented value has its case above.
          return `unknown ${unrecognizedValue(status)}`;
      }
    };
    const read = (connectStatus: string) =>
      deviceSchema.parse({ deviceId: "1", connectStatus }).connectStatus;
    expect(["ONLINE", "DISCONNECT", "NAPPING"].map((v) => words(read(v) as ConnectStatus))).toEqual([
      "up",
      "down",
      "unknown NAPPING",
    ]);
    expect(isKnownValue(CONNECT_STATUSES, read("NAPPING"))).toBe(false);
    expect(isKnownValue(CONNECT_STATUSES, read("OFFLINE"))).toBe(true);
  });

  it("search filters stay strict: an unknown status is refused before sending", () => {
    expect(deviceSearchQuerySchema.safeParse({ connectStatus: ["NAPPING"] }).success).toBe(false);
    expect(deviceSearchQuerySchema.safeParse({ rpsStatus: ["ACTIVATE"] }).success).toBe(false);
    expect(deviceSearchQuerySchema.safeParse({ deviceType: ["TOASTER"] }).success).toBe(false);
    expect(deviceSearchQuerySchema.safeParse({ licenseStatus: ["MAYBE"] }).success).toBe(false);
    expect(deviceSearchQuerySchema.safeParse({ connectStatus: ["ONLINE"] }).success).toBe(true);
  });

  it("accepts both rpsStatus families", () => {
    for (const rpsStatus of ["ACTIVATE", "UNACTIVATED", "ENABLED", "DISABLED"]) {
      expect(deviceDetailsSchema.parse({ deviceId: "1", rpsStatus }).rpsStatus).toBe(rpsStatus);
    }
  });

  it("reads absent and null fields as undefined, and drops unknown fields", () => {
    const device = deviceSchema.parse({ deviceId: "5", imei: null, sn: "24E1240000000001", extra: "x" });
    expect(device).toEqual({ deviceId: "5", sn: "24E1240000000001" });
    expect(device.imei).toBeUndefined();
    expect("extra" in device).toBe(false);
  });

  it("normalises ids given as numbers or strings to strings of digits", () => {
    const raw = parseLosslessJson('{"deviceId": 9223372036854775807, "application": {"applicationId": 12}}');
    expect(deviceSchema.parse(raw)).toMatchObject({
      deviceId: "9223372036854775807",
      application: { applicationId: "12" },
    });
    expect(deviceSchema.parse({ deviceId: 77 }).deviceId).toBe("77");
    expect(deviceSchema.safeParse({ deviceId: "12a" }).success).toBe(false);
    // A number that already lost precision is refused rather than silently wrong.
    expect(deviceSchema.safeParse({ deviceId: 2 ** 60 }).success).toBe(false);
  });

  it("parses a search page, with content defaulting to empty", () => {
    const page = deviceSearchResultSchema.parse({ pageSize: 10, pageNumber: 1, total: 0 });
    expect(page.content).toEqual([]);
  });
});

describe("TSL model", () => {
  it("keeps unknown dataType, elementDataType, encoding, accessMode, event type and callType as sent", () => {
    const model = thingModelSchema.parse({
      properties: [
        {
          id: "a",
          accessMode: "RWX",
          dataSpec: { dataType: "DECIMAL", elementDataType: "BYTE", encoding: "GBK" },
        },
      ],
      events: [{ id: "e", type: "FATAL" }],
      services: [{ id: "s", callType: "DEFERRED" }],
    });
    expect(model.properties[0]).toMatchObject({
      accessMode: "RWX",
      dataSpec: { dataType: "DECIMAL", elementDataType: "BYTE", encoding: "GBK" },
    });
    expect(model.events[0]?.type).toBe("FATAL");
    expect(model.services[0]?.callType).toBe("DEFERRED");
  });

  it("types documented dataSpec keys and passes unknown ones through", () => {
    const model = thingModelSchema.parse({
      version: "1.2",
      properties: [
        {
          id: "report_interval",
          accessMode: "RW",
          dataSpec: {
            dataType: "INT",
            validator: { min: "1", max: 3600 },
            defaultValue: 60,
            vendorHint: "x",
          },
        },
      ],
    });
    const spec = model.properties[0]?.dataSpec;
    expect(spec?.validator?.min).toBe(1);
    expect(spec?.defaultValue).toBe("60");
    expect(spec?.vendorHint).toBe("x");
    expect(model.events).toEqual([]);
    expect(model.services).toEqual([]);
  });
});

describe("tasks and tokens", () => {
  it("normalises task relation ids", () => {
    const raw = parseLosslessJson(
      '{"deviceTaskRelations":[{"deviceId":9007199254740993,"taskId":9007199254740995}]}',
    );
    expect(taskCreateResultSchema.parse(raw).deviceTaskRelations).toEqual([
      { deviceId: "9007199254740993", taskId: "9007199254740995" },
    ]);
  });

  it("reads token details, defaulting the lifetime and accepting numeric strings", () => {
    expect(tokenDetailsSchema.parse({ access_token: "abc", expires_in: "120" })).toMatchObject({
      expires_in: 120,
    });
    expect(tokenDetailsSchema.parse({ access_token: "abc", refresh_token: null }).expires_in).toBe(3600);
    expect(tokenDetailsSchema.safeParse({ token: "abc" }).success).toBe(false);
  });
});
