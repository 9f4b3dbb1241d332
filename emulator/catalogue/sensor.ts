import { boolMapping, parameter, property, struct } from "./builders";
import type { DeviceModel, TslModel, TslProperty } from "./types";

const TEMPERATURE_RANGE = { min: -40, max: 125 };

const baseProperties: TslProperty[] = [
  property("serialNumber", "R", { dataType: "STRING", encoding: "ASCII", validator: { maxSize: 16 } }),
  property("firmwareVersion", "R", { dataType: "STRING" }, { name: "${tsl.property.firmwareVersion}" }),
  property(
    "temperature",
    "R",
    { dataType: "FLOAT", unitName: "°C", fractionDigits: 1, validator: TEMPERATURE_RANGE },
    { name: "Temperature", description: "Last measured air temperature." },
  ),
  property("humidity", "R", {
    dataType: "DOUBLE",
    unitName: "%RH",
    fractionDigits: 2,
    validator: { min: 0, max: 100 },
  }),
  property("batteryLevel", "R", { dataType: "INT", unitName: "%", validator: { min: 0, max: 100 } }),
  property("lastCalibration", "R", { dataType: "DATE" }, { description: "Milliseconds since the epoch." }),
  property("reportCount", "R", { dataType: "LONG" }),
  property(
    "reportInterval",
    "RW",
    { dataType: "INT", unitName: "s", defaultValue: "600", validator: { min: 60, max: 86400 } },
    { name: "Report interval", description: "Seconds between two measurement reports." },
  ),
  property("temperatureUnit", "RW", {
    dataType: "ENUM",
    defaultValue: "0",
    mapping: { "0": "Celsius", "1": "Fahrenheit" },
  }),
  property("ledEnabled", "RW", { dataType: "BOOL", defaultValue: "true", mapping: boolMapping("Off", "On") }),
  ...struct(
    "alarmThreshold",
    "RW",
    [
      {
        id: "high",
        dataSpec: {
          dataType: "FLOAT",
          unitName: "°C",
          defaultValue: "30",
          validator: { ...TEMPERATURE_RANGE, required: true },
        },
      },
      {
        id: "low",
        dataSpec: {
          dataType: "FLOAT",
          unitName: "°C",
          defaultValue: "0",
          validator: { ...TEMPERATURE_RANGE, required: true },
        },
      },
      {
        id: "enabled",
        dataSpec: {
          dataType: "BOOL",
          defaultValue: "false",
          mapping: boolMapping("Disabled", "Enabled"),
          validator: { required: false },
        },
      },
    ],
    { name: "Alarm thresholds" },
  ),
  property("label", "W", {
    dataType: "STRING",
    encoding: "UTF8",
    defaultValue: "sensor",
    validator: { minSize: 1, maxSize: 32 },
  }),
];

const v100: TslModel = {
  version: "1.0.0",
  properties: baseProperties,
  events: [
    {
      id: "lowBattery",
      name: "Low battery",
      description: "Battery level fell below 15 %.",
      type: "WARN",
      outputs: [parameter("batteryLevel", { dataType: "INT", unitName: "%" }, "batteryLevel")],
    },
    {
      id: "temperatureAlarm",
      name: "Temperature alarm",
      description: "Temperature crossed an alarm threshold.",
      type: "ERROR",
      outputs: [
        parameter("temperature", { dataType: "FLOAT", unitName: "°C" }, "temperature"),
        parameter("direction", { dataType: "ENUM", mapping: { "0": "above", "1": "below" } }),
      ],
    },
  ],
  services: [
    {
      id: "reboot",
      name: "Reboot",
      description: "Restarts the sensor.",
      callType: "ASYNC",
      inputs: [],
      outputs: [],
    },
    {
      id: "calibrate",
      name: "Calibrate",
      description: "Applies a temperature offset.",
      callType: "SYNC",
      inputs: [parameter("offset", { dataType: "FLOAT", validator: { min: -5, max: 5 } })],
      outputs: [parameter("accepted", { dataType: "BOOL", mapping: boolMapping("No", "Yes") })],
    },
  ],
};

/** Version 1.1.0 adds a writable sampling window; selected with Update a Device Information's tslVersion. */
const v110: TslModel = {
  ...v100,
  version: "1.1.0",
  properties: [
    ...baseProperties,
    property("sampleWindow", "RW", {
      dataType: "INT",
      unitName: "s",
      defaultValue: "5",
      validator: { min: 1, max: 60 },
    }),
  ],
};

/** Environment sensor, serial numbers `24…`: battery powered, returns devEUI. */
export const SENSOR: DeviceModel = {
  key: "sensor",
  model: "EnvSense S24",
  serialPrefix: "24",
  deviceType: "COMMON",
  deviceTypeInQuery: "COMMON",
  hardwareVersion: "S24-HW-2.1",
  firmwareVersion: "1.4.7",
  returnsDevEUI: true,
  returnsImei: false,
  hasBattery: true,
  hasMac: false,
  hasWlanMac: false,
  tslVersions: [v100, v110],
};
