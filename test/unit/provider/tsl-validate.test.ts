/**
 * The TSL validator as pure functions: bad values across dataTypes, validators, access modes and
 * STRUCT/ARRAY shapes, each failing with a message that names the property and the rule; good
 * values passing; unknown (preview) values skipped.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../provider/input-checks";
import { failuresForGroups, problemToFailure } from "../../../provider/device-config-validation";
import { validateProperties } from "../../../provider/tsl-validate";
import { DEVICE, MODEL } from "./tsl-fixtures";

/** The check failures for `properties` against the fixture model of {@link DEVICE}. */
function failuresOf(properties: Record<string, unknown>) {
  return validateProperties(properties, MODEL, `device ${DEVICE}`).map(problemToFailure);
}

const OF = `of device ${DEVICE}`;

/** [case, properties, property path named, words of the rule] */
const BAD: [string, Record<string, unknown>, string, string][] = [
  [
    "unknown property",
    { nope: 1 },
    "nope",
    `is not a property of the TSL model version 1.0.0 ${OF}; writable properties: reportInterval`,
  ],
  ["read-only property", { serialNumber: "X" }, "serialNumber", `is read-only (TSL accessMode R ${OF})`],
  [
    "STRUCT child given at the top",
    { "alarmThreshold.high": 1 },
    "alarmThreshold.high",
    "is a field of the STRUCT alarmThreshold",
  ],
  ["null value", { reportInterval: null }, "reportInterval", "must have a value"],
  [
    "INT as a string",
    { reportInterval: "600" },
    "reportInterval",
    `must be a whole number (TSL dataType INT ${OF}), got "600"`,
  ],
  [
    "INT with a fraction",
    { reportInterval: 600.5 },
    "reportInterval",
    "must be a whole number (TSL dataType INT",
  ],
  [
    "INT below min",
    { reportInterval: 59 },
    "reportInterval",
    `must be at least 60 (TSL validator min ${OF}), got 59`,
  ],
  [
    "INT above max",
    { reportInterval: 90000 },
    "reportInterval",
    `must be at most 86400 (TSL validator max ${OF}), got 90000`,
  ],
  ["INT beyond 32 bits", { reportInterval: 3_000_000_000 }, "reportInterval", "must fit a 32-bit INT"],
  [
    "ENUM key not in mapping",
    { temperatureUnit: 2 },
    "temperatureUnit",
    "must be one of the ENUM mapping keys 0 (Celsius), 1 (Fahrenheit) (TSL mapping",
  ],
  [
    "ENUM label instead of key",
    { temperatureUnit: "Celsius" },
    "temperatureUnit",
    "must be one of the ENUM mapping keys",
  ],
  [
    "ENUM as a boolean",
    { temperatureUnit: true },
    "temperatureUnit",
    "must be an ENUM value (a whole number or a string) (TSL dataType ENUM",
  ],
  [
    "BOOL as a string",
    { ledEnabled: "true" },
    "ledEnabled",
    `must be true or false (TSL dataType BOOL ${OF}), got "true"`,
  ],
  ["BOOL as a number", { ledEnabled: 1 }, "ledEnabled", "must be true or false (TSL dataType BOOL"],
  [
    "BOOL outside its mapping",
    { armed: false },
    "armed",
    "must be one of the BOOL mapping keys true (Armed) (TSL mapping",
  ],
  ["STRING as a number", { label: 5 }, "label", "must be a string (TSL dataType STRING"],
  [
    "STRING above maxSize",
    { label: "ninechars" },
    "label",
    `must have at most 8 characters (TSL validator maxSize ${OF}), got 9 characters`,
  ],
  ["STRING below minSize", { label: "" }, "label", "must have at least 1 character (TSL validator minSize"],
  [
    "HEX string with other letters",
    { networkKey: "zz".repeat(16) },
    "networkKey",
    "must be hex digits only (0-9, A-F) (TSL encoding HEX",
  ],
  [
    "HEX string of the wrong length",
    { networkKey: "ab".repeat(15) },
    "networkKey",
    "must have at least 32 characters (TSL validator minSize",
  ],
  [
    "ASCII string with an accent",
    { apn: "café" },
    "apn",
    "must be ASCII characters only (TSL encoding ASCII",
  ],
  [
    "BASE64 string without padding",
    { token: "abc" },
    "token",
    "must be base64 text (A-Z, a-z, 0-9, +, /, = padding) (TSL encoding BASE64",
  ],
  [
    "LONG number beyond 2^53",
    { counter: 2 ** 53 + 2 },
    "counter",
    "is beyond 2^53, where a number loses digits; give it as a string of digits",
  ],
  [
    "LONG string with letters",
    { counter: "12a" },
    "counter",
    "must be a whole number or a string of digits (TSL dataType LONG",
  ],
  [
    "LONG as digits above max",
    { heartbeat: "4294967297" },
    "heartbeat",
    `must be at most 4294967296 (TSL validator max ${OF}), got 4294967297`,
  ],
  ["LONG below min", { heartbeat: 5 }, "heartbeat", "must be at least 10 (TSL validator min"],
  ["LONG beyond 64 bits", { counter: "9223372036854775808" }, "counter", "must fit a 64-bit LONG"],
  [
    "DATE as a date string",
    { maintenanceDate: "2024-01-01" },
    "maintenanceDate",
    "must be a whole number or a string of digits (TSL dataType DATE",
  ],
  ["DOUBLE as a string", { setpoint: "21.5" }, "setpoint", "must be a number (TSL dataType DOUBLE"],
  ["DOUBLE above max", { setpoint: 35.5 }, "setpoint", "must be at most 35 (TSL validator max"],
  ["FLOAT beyond 32 bits", { gain: 1e39 }, "gain", "must fit a 32-bit FLOAT"],
  [
    "STRUCT as a number",
    { alarmThreshold: 30 },
    "alarmThreshold",
    "must be an object keyed by the STRUCT's fields (high, low, enabled) (TSL dataType STRUCT",
  ],
  [
    "STRUCT as a list",
    { alarmThreshold: [30, 0] },
    "alarmThreshold",
    "must be an object keyed by the STRUCT's fields",
  ],
  [
    "STRUCT without a required child",
    { alarmThreshold: { high: 30 } },
    "alarmThreshold.low",
    `is required (TSL validator required ${OF})`,
  ],
  [
    "STRUCT with an unknown child",
    { alarmThreshold: { high: 30, low: 0, medium: 15 } },
    "alarmThreshold.medium",
    "is not a field of the STRUCT alarmThreshold",
  ],
  [
    "STRUCT child of the wrong type",
    { alarmThreshold: { high: "hot", low: 0 } },
    "alarmThreshold.high",
    "must be a number (TSL dataType FLOAT",
  ],
  [
    "STRUCT child above max",
    { alarmThreshold: { high: 200, low: 0 } },
    "alarmThreshold.high",
    "must be at most 125 (TSL validator max",
  ],
  [
    "STRUCT child given twice",
    { alarmThreshold: { high: 30, "alarmThreshold.high": 31, low: 0 } },
    "alarmThreshold.alarmThreshold.high",
    "names the field alarmThreshold.high a second time",
  ],
  [
    "read-only STRUCT child",
    { wan: { mtu: 1500, mac: "00:11" } },
    "wan.mac",
    "is read-only (TSL accessMode R",
  ],
  [
    "STRUCT child BOOL as a string",
    { alarmThreshold: { high: 30, low: 0, enabled: "yes" } },
    "alarmThreshold.enabled",
    "must be true or false (TSL dataType BOOL",
  ],
  ["ARRAY as a number", { schedule: 360 }, "schedule", "must be a list of INT (TSL dataType ARRAY"],
  [
    "ARRAY above maxSize",
    { schedule: [1, 2, 3, 4] },
    "schedule",
    "must have at most 3 elements (TSL validator maxSize",
  ],
  [
    "ARRAY below minSize",
    { schedule: [] },
    "schedule",
    "must have at least 1 element (TSL validator minSize",
  ],
  [
    "ARRAY element of the wrong type",
    { schedule: ["06:00"] },
    "schedule[0]",
    "must be a whole number (TSL elementDataType INT",
  ],
  [
    "ARRAY element above max",
    { schedule: [360, 1440] },
    "schedule[1]",
    "must be at most 1439 (TSL validator max",
  ],
  [
    "ARRAY of STRING with a number",
    { subnets: ["10.0.0.0/8", 7] },
    "subnets[1]",
    "must be a string (TSL elementDataType STRING",
  ],
  [
    "ARRAY of ENUM outside its mapping",
    { modes: [0, 5] },
    "modes[1]",
    "must be one of the ENUM mapping keys 0 (off), 1 (on)",
  ],
  [
    "ARRAY of STRUCT with a non-object",
    { rules: [7] },
    "rules[0]",
    "must be an object (TSL elementDataType STRUCT",
  ],
  [
    "ARRAY of STRUCT without a required child",
    { rules: [{ to: 5 }] },
    "rules[0].from",
    "is required (TSL validator required",
  ],
];

describe("TSL validation of bad values", () => {
  it("covers at least 30 bad values", () => {
    expect(BAD.length).toBeGreaterThanOrEqual(30);
  });

  it.each(BAD)("%s fails naming the property and the rule", (_case, properties, path, words) => {
    const failures = failuresOf(properties);
    const failure = failures.find((f) => f.property === `properties.${path}`);
    expect(failure, JSON.stringify(failures)).toBeDefined();
    expect(failure?.reason.startsWith(`DeviceConfig.properties.${path} `)).toBe(true);
    expect(failure?.reason).toContain(words);
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
