import { boolMapping, parameter, property } from "./builders";
import type { DeviceModel, TslModel } from "./types";

const tsl: TslModel = {
  version: "1.2.0",
  properties: [
    property("runtimeHours", "R", { dataType: "LONG", unitName: "h" }),
    property("valvePosition", "R", { dataType: "FLOAT", unitName: "%", validator: { min: 0, max: 100 } }),
    property(
      "setpoint",
      "RW",
      {
        dataType: "DOUBLE",
        unitName: "°C",
        fractionDigits: 1,
        defaultValue: "21.5",
        validator: { min: 5, max: 35 },
      },
      { name: "${tsl.property.setpoint}" },
    ),
    property("mode", "RW", {
      dataType: "ENUM",
      defaultValue: "3",
      mapping: { "0": "off", "1": "heat", "2": "cool", "3": "auto" },
    }),
    property(
      "schedule",
      "RW",
      {
        dataType: "ARRAY",
        elementDataType: "INT",
        defaultValue: "[360,1320]",
        validator: { minSize: 0, maxSize: 24, min: 0, max: 1439 },
      },
      { description: "Switch times, minutes after midnight." },
    ),
    property("childLock", "W", {
      dataType: "BOOL",
      defaultValue: "false",
      mapping: boolMapping("Unlocked", "Locked"),
    }),
    property(
      "maintenanceDate",
      "RW",
      { dataType: "DATE", defaultValue: "0" },
      { description: "Next maintenance, milliseconds since the epoch." },
    ),
    property("displayName", "RW", {
      dataType: "STRING",
      encoding: "UTF8",
      defaultValue: "controller",
      validator: { minSize: 1, maxSize: 20 },
    }),
    property("provisioningToken", "W", {
      dataType: "STRING",
      encoding: "BASE64",
      defaultValue: "",
      validator: { maxSize: 64 },
    }),
  ],
  events: [
    {
      id: "filterDue",
      name: "Filter due",
      description: "The filter needs replacing.",
      type: "INFO",
      outputs: [parameter("runtimeHours", { dataType: "LONG" }, "runtimeHours")],
    },
    {
      id: "frostProtection",
      name: "Frost protection",
      description: "Frost protection engaged.",
      type: "WARN",
      outputs: [parameter("valvePosition", { dataType: "FLOAT" }, "valvePosition")],
    },
  ],
  services: [
    {
      id: "reboot",
      name: "Reboot",
      description: "Restarts the controller.",
      callType: "ASYNC",
      inputs: [],
      outputs: [],
    },
    {
      id: "valveTest",
      name: "Valve test",
      description: "Runs the valve through its range.",
      callType: "SYNC",
      inputs: [],
      outputs: [parameter("passed", { dataType: "BOOL", mapping: boolMapping("Failed", "Passed") })],
    },
  ],
};

/** Heating controller, serial numbers `AC…`: mains powered, returns imei, has a MAC address. */
export const CONTROLLER: DeviceModel = {
  key: "controller",
  model: "FlowControl AC",
  serialPrefix: "AC",
  deviceType: "COMMON",
  deviceTypeInQuery: "COMMON",
  hardwareVersion: "AC-HW-1.2",
  firmwareVersion: "2.0.3",
  returnsDevEUI: false,
  returnsImei: true,
  hasBattery: false,
  hasMac: true,
  hasWlanMac: false,
  tslVersions: [tsl],
};
