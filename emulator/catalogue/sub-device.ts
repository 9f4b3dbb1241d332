import { boolMapping, parameter, property, struct } from "./builders";
import type { DeviceModel, TslModel } from "./types";

const tsl: TslModel = {
  version: "1.0.3",
  properties: [
    property("leakDetected", "R", { dataType: "BOOL", mapping: boolMapping("Dry", "Leak") }),
    property("parentGateway", "R", { dataType: "STRING", encoding: "HEX", validator: { maxSize: 16 } }),
    property("sensitivity", "RW", { dataType: "INT", defaultValue: "5", validator: { min: 1, max: 10 } }),
    property("alarmMode", "RW", {
      dataType: "ENUM",
      defaultValue: "1",
      mapping: { "0": "silent", "1": "beep", "2": "siren" },
    }),
    property("probeOffsets", "RW", {
      dataType: "ARRAY",
      elementDataType: "FLOAT",
      defaultValue: "[0,0]",
      validator: { minSize: 1, maxSize: 4, min: -1, max: 1 },
    }),
    ...struct("buzzer", "RW", [
      {
        id: "volume",
        dataSpec: { dataType: "INT", defaultValue: "50", validator: { min: 0, max: 100, required: true } },
      },
      {
        id: "pattern",
        dataSpec: { dataType: "ENUM", defaultValue: "0", mapping: { "0": "steady", "1": "pulsed" } },
      },
    ]),
  ],
  events: [
    {
      id: "leak",
      name: "Leak",
      description: "Water detected.",
      type: "ERROR",
      outputs: [parameter("leakDetected", { dataType: "BOOL" }, "leakDetected")],
    },
    {
      id: "batteryLow",
      name: "Battery low",
      description: "Battery needs replacing.",
      type: "WARN",
      outputs: [parameter("electricity", { dataType: "INT", unitName: "%" })],
    },
  ],
  services: [
    {
      id: "identify",
      name: "Identify",
      description: "Beeps three times.",
      callType: "ASYNC",
      inputs: [],
      outputs: [],
    },
    {
      id: "selfTest",
      name: "Self test",
      description: "Checks the probes.",
      callType: "SYNC",
      inputs: [],
      outputs: [parameter("passed", { dataType: "BOOL" })],
    },
  ],
};

/**
 * Leak detector behind a gateway, serial numbers `5B…`. Its single-device responses spell the device
 * type `SUB-DEVICE`, as the platform's examples do; search results use `SUB_DEVICE`.
 */
export const SUB_DEVICE: DeviceModel = {
  key: "sub-device",
  model: "LeakSense B5",
  serialPrefix: "5B",
  deviceType: "SUB_DEVICE",
  deviceTypeInQuery: "SUB-DEVICE",
  hardwareVersion: "B5-HW-1.0",
  firmwareVersion: "1.1.0",
  returnsDevEUI: true,
  returnsImei: false,
  hasBattery: true,
  hasMac: false,
  hasWlanMac: false,
  tslVersions: [tsl],
};
