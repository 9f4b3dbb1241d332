/**
 * Bad configuration values for the validator's unit tests: each breaks one rule of the fixture
 * model (dataTypes, validators, access modes, STRUCT and ARRAY shapes) and names the property path
 * and the words of the rule its failure must carry.
 */
import { DEVICE } from "./tsl-fixtures";

const OF = `of device ${DEVICE}`;

/** [case, properties, property path named, words of the rule] */
export const BAD_VALUES: [string, Record<string, unknown>, string, string][] = [
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
    "must be an even number of hex digits (0-9, A-F) (TSL encoding HEX",
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
    "must be printable ASCII characters only (TSL encoding ASCII",
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
    "must be milliseconds since the epoch, a whole number from 0 (TSL dataType DATE",
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
  [
    "DATE before the epoch",
    { maintenanceDate: -1 },
    "maintenanceDate",
    "must be milliseconds since the epoch",
  ],
  [
    "HEX string of an odd length",
    { macAddress: "abc" },
    "macAddress",
    "must be an even number of hex digits",
  ],
];
