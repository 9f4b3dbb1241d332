import { describe, expect, it } from "vitest";
import {
  deviceDetailsSchema,
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
    expect(deviceSchema.safeParse({ deviceId: "1", deviceType: "TOASTER" }).success).toBe(false);
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
