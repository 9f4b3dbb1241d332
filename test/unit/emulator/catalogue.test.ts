import { describe, expect, it } from "vitest";
import {
  CATALOGUE,
  CONTROLLER,
  DATA_TYPES,
  GATEWAY,
  SENSOR,
  SUB_DEVICE,
  findProperty,
  modelForSerial,
  requireProperty,
  serialNumberFor,
  tslOf,
  type TslProperty,
} from "../../../emulator";

const allProperties: TslProperty[] = CATALOGUE.flatMap((m) => m.tslVersions.flatMap((t) => t.properties));
const writable = allProperties.filter((p) => p.accessMode !== "R");

describe("device catalogue", () => {
  it("chooses models by serial-number prefix, ignoring case, with the sensor as fallback", () => {
    expect(modelForSerial("2400000000000001")).toBe(SENSOR);
    expect(modelForSerial("6600000000000001")).toBe(GATEWAY);
    expect(modelForSerial("ac00000000000001")).toBe(CONTROLLER);
    expect(modelForSerial("5b00000000000001")).toBe(SUB_DEVICE);
    expect(modelForSerial("1200000000000001")).toBe(SENSOR);
    expect([SENSOR, GATEWAY, CONTROLLER, SUB_DEVICE].map((m) => m.deviceType)).toEqual([
      "COMMON",
      "GATEWAY",
      "COMMON",
      "SUB_DEVICE",
    ]);
    expect(SUB_DEVICE.deviceTypeInQuery).toBe("SUB-DEVICE");
  });

  it("uses every data type, as property or array element", () => {
    const used = new Set(allProperties.flatMap((p) => [p.dataSpec.dataType, p.dataSpec.elementDataType]));
    for (const type of DATA_TYPES) expect(used, type).toContain(type);
  });

  it("uses every validator, mappings for ENUM and BOOL, encodings, and R, W and RW access", () => {
    const validators = allProperties.flatMap((p) => Object.keys(p.dataSpec.validator ?? {}));
    for (const key of ["min", "max", "minSize", "maxSize", "required"]) expect(validators).toContain(key);
    expect(allProperties.filter((p) => p.dataSpec.dataType === "ENUM").every((p) => p.dataSpec.mapping)).toBe(
      true,
    );
    const bools = allProperties.filter((p) => p.dataSpec.dataType === "BOOL" && p.dataSpec.mapping);
    expect(bools.length).toBeGreaterThan(0);
    expect(
      bools.every(
        (p) =>
          Object.keys(p.dataSpec.mapping ?? {})
            .sort()
            .join() === "false,true",
      ),
    ).toBe(true);
    const encodings = new Set(allProperties.map((p) => p.dataSpec.encoding).filter(Boolean));
    expect([...encodings].sort()).toEqual(["ASCII", "BASE64", "HEX", "UTF8"]);
    expect(new Set(allProperties.map((p) => p.accessMode))).toEqual(new Set(["R", "W", "RW"]));
  });

  it("gives every writable property a defaultValue string, and arrays an elementDataType", () => {
    expect(writable.every((p) => typeof p.dataSpec.defaultValue === "string")).toBe(true);
    expect(
      allProperties.filter((p) => p.dataSpec.dataType === "ARRAY").every((p) => p.dataSpec.elementDataType),
    ).toBe(true);
  });

  it("names STRUCT children <parent>.<child> with parentId, and marks required children", () => {
    const children = allProperties.filter((p) => p.dataSpec.parentId !== undefined);
    expect(children.length).toBeGreaterThan(0);
    for (const child of children) expect(child.id).toBe(`${child.dataSpec.parentId}.${child.propertyKey}`);
    expect(children.some((c) => c.dataSpec.validator?.required === true)).toBe(true);
  });

  it("gives each model a TSL with a version, events and services, and version strings", () => {
    for (const model of CATALOGUE) {
      expect(model.hardwareVersion).toMatch(/\S/);
      expect(model.firmwareVersion).toMatch(/\S/);
      for (const tsl of model.tslVersions) {
        expect(tsl.version).toMatch(/^\d+\.\d+\.\d+$/);
        expect(tsl.events.length).toBeGreaterThanOrEqual(2);
        expect(tsl.services.length).toBeGreaterThanOrEqual(2);
      }
    }
  });

  it("finds properties by their characteristics", () => {
    expect(requireProperty(SENSOR, { dataType: "INT", writable: true }).id).toBe("reportInterval");
    expect(requireProperty(GATEWAY, { dataType: "STRING", encoding: "HEX" }).accessMode).toBe("W");
    expect(findProperty(tslOf(SENSOR), { dataType: "FLOAT", child: true })?.id).toBe("alarmThreshold.high");
    expect(() => requireProperty(CONTROLLER, { dataType: "STRUCT" })).toThrow(/no property/);
  });

  it("makes valid serial numbers for a model", () => {
    const sn = serialNumberFor(GATEWAY, 7, 3);
    expect(sn).toBe("6600000003000007");
    expect(modelForSerial(sn)).toBe(GATEWAY);
  });
});
