/**
 * DeviceConfig input shape checks (no platform needed), the normal form of `deviceIds`, and the
 * resource id derived from the device ids.
 */
import { describe, expect, it } from "vitest";
import {
  checkConfigInputs,
  configId,
  desiredConfig,
  knownDeviceIds,
} from "../../../provider/device-config/inputs";
import { UNKNOWN } from "../../../provider/shared/input-checks";

const ID = "9007199254741001";

function reasons(news: Record<string, unknown>): string[] {
  return checkConfigInputs(news).failures.map((f) => f.reason);
}

describe("DeviceConfig input checks", () => {
  it("accepts one deviceId alone and turns it into a list", () => {
    const { inputs, failures } = checkConfigInputs({ deviceIds: ID, properties: { reportInterval: 600 } });
    expect(failures).toEqual([]);
    expect(inputs.deviceIds).toEqual([ID]);
  });

  it.each([
    [{ properties: { a: 1 } }, "DeviceConfig.deviceIds is required"],
    [{ deviceIds: [], properties: { a: 1 } }, "DeviceConfig.deviceIds must name at least one device"],
    [
      { deviceIds: 42, properties: { a: 1 } },
      "DeviceConfig.deviceIds must be a deviceId (a string of digits)",
    ],
    [
      { deviceIds: ["12a"], properties: { a: 1 } },
      'DeviceConfig.deviceIds[0] must be a deviceId, a string of digits, got "12a"',
    ],
    [
      // YAML's reading of an unquoted 000000123456.
      { deviceIds: [42798], properties: { a: 1 } },
      'DeviceConfig.deviceIds[0] must be a deviceId, a string of digits, got the number 42798 (in YAML, quote it: - "…"; ' +
        "a number loses its leading zeros, and YAML reads digits starting with 0 as octal: an unquoted 0123456 arrives as 42798)",
    ],
    [{ deviceIds: [ID, ID], properties: { a: 1 } }, `DeviceConfig.deviceIds[1] repeats the deviceId ${ID}`],
    [{ deviceIds: [ID] }, "DeviceConfig.properties is required: give properties"],
    [
      { deviceIds: [ID], properties: { a: 1 }, profile: { b: 2 } },
      "DeviceConfig.profile cannot be given together",
    ],
    [{ deviceIds: [ID], properties: {} }, "DeviceConfig.properties must set at least one TSL property id"],
    [
      { deviceIds: [ID], properties: [1] },
      "DeviceConfig.properties must be an object of TSL property id → value",
    ],
    [{ deviceIds: [ID], profile: { k: null } }, "DeviceConfig.profile.k must have a value"],
    [
      { deviceIds: [ID], profile: { k: 1 }, resetOnDelete: true },
      "DeviceConfig.resetOnDelete applies to properties only",
    ],
    [{ deviceIds: [ID], properties: { a: 1 }, version: 3 }, "DeviceConfig.version must be a string"],
    [
      { deviceIds: [ID], properties: { a: 1 }, resetOnDelete: "yes" },
      "DeviceConfig.resetOnDelete must be true or false",
    ],
    [
      { deviceIds: [ID], properties: { a: 1 }, typo: 1 },
      "DeviceConfig.typo is not a property of DeviceConfig",
    ],
  ])("rejects %j", (news, words) => {
    expect(reasons(news).some((r) => r.startsWith(words))).toBe(true);
  });

  it("lets unknown device ids and values through at preview", () => {
    expect(reasons({ deviceIds: UNKNOWN, properties: { a: UNKNOWN } })).toEqual([]);
    expect(reasons({ deviceIds: [UNKNOWN, ID], properties: UNKNOWN })).toEqual([]);
    expect(knownDeviceIds({ deviceIds: [UNKNOWN, ID] })).toBeUndefined();
    expect(knownDeviceIds({ deviceIds: [ID] })).toEqual([ID]);
  });
});

describe("the desired configuration", () => {
  it("reads defaults: resetOnDelete false, no version", () => {
    expect(desiredConfig({ deviceIds: ID, properties: { a: 1 } })).toEqual({
      deviceIds: [ID],
      properties: { a: 1 },
      resetOnDelete: false,
    });
  });
});

describe("the resource id", () => {
  it("is the deviceId for one device", () => {
    expect(configId([ID])).toBe(ID);
  });

  it("names the smallest device, how many others, and a digest of the set for several", () => {
    const id = configId(["9007199254741003", "999", "9007199254741002"]);
    expect(id).toMatch(/^999\+2-[0-9a-f]{12}$/);
    expect(configId(["9007199254741002", "999", "9007199254741003"])).toBe(id);
    expect(configId(["999", "9007199254741004", "9007199254741002"])).not.toBe(id);
  });
});
