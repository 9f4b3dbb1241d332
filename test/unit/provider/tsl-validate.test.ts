/**
 * The TSL validator as pure functions: bad values across dataTypes, validators, access modes and
 * STRUCT/ARRAY shapes, each failing with a message that names the property and the rule; good
 * values passing; unknown (preview) values skipped.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../provider/shared/input-checks";
import { failuresForGroups, problemToFailure } from "../../../provider/device-config/validation";
import { validateProperties } from "../../../provider/tsl/validate";
import { BAD_VALUES as BAD } from "./tsl-bad-values";
import { DEVICE, MODEL } from "./tsl-fixtures";

/** The check failures for `properties` against the fixture model of {@link DEVICE}. */
function failuresOf(properties: Record<string, unknown>) {
  return validateProperties(properties, MODEL, `device ${DEVICE}`).map(problemToFailure);
}

describe("TSL validation of bad values", () => {
  it("covers at least 30 bad values", () => {
    expect(BAD.length).toBeGreaterThanOrEqual(30);
  });

  it.each(BAD)("%s fails naming the property and the rule", (_case, properties, path, words) => {
    const failures = failuresOf(properties);
    const failure = failures.find((f) => f.property === `properties.${path}` && f.reason.includes(words));
    expect(failure, JSON.stringify(failures, null, 2)).toBeDefined();
    expect(failure?.reason.startsWith(`DeviceConfig.properties.${path} `)).toBe(true);
  });

  it("words the example of the design exactly", () => {
    expect(failuresOf({ reportInterval: 90000 })).toEqual([
      {
        property: "properties.reportInterval",
        reason: `DeviceConfig.properties.reportInterval must be at most 86400 (TSL validator max of device ${DEVICE}), got 90000`,
      },
    ]);
  });

  it("gives one failure per broken rule, for each property", () => {
    const failures = failuresOf({ reportInterval: 1, label: "x".repeat(9), nope: true });
    expect(failures.map((f) => f.property).sort()).toEqual([
      "properties.label",
      "properties.nope",
      "properties.reportInterval",
    ]);
  });
});

describe("TSL validation of good values", () => {
  it("accepts a value of every dataType within its rules", () => {
    const good = {
      reportInterval: 600,
      temperatureUnit: 1,
      ledEnabled: false,
      armed: true,
      alarmThreshold: { high: 30.5, low: -10, enabled: true },
      wan: { mtu: 1400 },
      label: "kitchen",
      networkKey: "00112233445566778899AABBCCDDEEFF",
      apn: "internet",
      token: "aGVsbG8=",
      schedule: [0, 720, 1439],
      subnets: ["10.0.0.0/8"],
      modes: [0, 1],
      rules: [{ from: 1, to: 2 }, { from: 3 }],
      heartbeat: "4294967296",
      counter: "9223372036854775807",
      maintenanceDate: 1_767_225_600_000,
      setpoint: 21.5,
      gain: -0.25,
    };
    expect(failuresOf(good)).toEqual([]);
  });

  it("accepts ENUM keys as strings, STRUCT children by full id, and LONG digits of any size", () => {
    expect(
      failuresOf({
        temperatureUnit: "0",
        alarmThreshold: { "alarmThreshold.high": 1, "alarmThreshold.low": 0 },
        counter: "-9223372036854775808",
        heartbeat: 10,
      }),
    ).toEqual([]);
  });

  it("skips values the engine does not know yet", () => {
    expect(
      failuresOf({ reportInterval: UNKNOWN, alarmThreshold: { high: UNKNOWN, low: 0 }, schedule: [UNKNOWN] }),
    ).toEqual([]);
  });
});

describe("validation of a fleet", () => {
  it("validates once per model and names a device of the model and how many share it", () => {
    const failures = failuresForGroups({ reportInterval: 90000 }, [
      { model: MODEL, deviceIds: [DEVICE, "9007199254741002", "9007199254741003"] },
    ]);
    expect(failures).toHaveLength(1);
    expect(failures[0]?.reason).toContain(`(TSL validator max of device ${DEVICE} and 2 other devices)`);
  });
});
