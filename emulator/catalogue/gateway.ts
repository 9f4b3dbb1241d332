import { parameter, property, struct } from "./builders";
import type { DeviceModel, TslModel } from "./types";

const tsl: TslModel = {
  version: "2.3.0",
  properties: [
    property("uptime", "R", { dataType: "LONG", unitName: "s" }),
    property("subDeviceCount", "R", { dataType: "INT", validator: { min: 0, max: 2000 } }),
    property(
      "heartbeatPeriod",
      "RW",
      { dataType: "LONG", unitName: "s", defaultValue: "60", validator: { min: 10, max: 4294967296 } },
      { description: "Seconds between two heartbeats." },
    ),
    property("apn", "RW", {
      dataType: "STRING",
      encoding: "ASCII",
      defaultValue: "internet",
      validator: { minSize: 1, maxSize: 63 },
    }),
    property("channelPlan", "RW", {
      dataType: "ENUM",
      defaultValue: "0",
      mapping: { "0": "EU868", "1": "US915", "2": "AS923" },
    }),
    property("allowedSubnets", "RW", {
      dataType: "ARRAY",
      elementDataType: "STRING",
      defaultValue: "[]",
      validator: { maxSize: 8 },
    }),
    property(
      "networkKey",
      "W",
      {
        dataType: "STRING",
        encoding: "HEX",
        defaultValue: "00000000000000000000000000000000",
        validator: { minSize: 32, maxSize: 32 },
      },
      { description: "128-bit network key, hex; write-only." },
    ),
    ...struct("wanConfig", "RW", [
      {
        id: "mode",
        dataSpec: {
          dataType: "ENUM",
          defaultValue: "0",
          mapping: { "0": "DHCP", "1": "STATIC" },
          validator: { required: true },
        },
      },
      {
        id: "address",
        dataSpec: {
          dataType: "STRING",
          encoding: "ASCII",
          defaultValue: "0.0.0.0",
          validator: { maxSize: 15 },
        },
      },
      {
        id: "mtu",
        dataSpec: {
          dataType: "INT",
          defaultValue: "1500",
          validator: { min: 576, max: 1500, required: false },
        },
      },
    ]),
  ],
  events: [
    {
      id: "subDeviceJoined",
      name: "Sub-device joined",
      description: "A sub-device joined through this gateway.",
      type: "INFO",
      outputs: [parameter("subDeviceSn", { dataType: "STRING" })],
    },
    {
      id: "backhaulLost",
      name: "Backhaul lost",
      description: "The gateway lost its uplink.",
      type: "ERROR",
      outputs: [parameter("since", { dataType: "DATE" })],
    },
  ],
  services: [
    {
      id: "reboot",
      name: "Reboot",
      description: "Restarts the gateway.",
      callType: "ASYNC",
      inputs: [],
      outputs: [],
    },
    {
      id: "scanChannels",
      name: "Scan channels",
      description: "Measures noise on each channel.",
      callType: "SYNC",
      inputs: [parameter("durationSeconds", { dataType: "INT", validator: { min: 1, max: 60 } })],
      outputs: [parameter("noise", { dataType: "ARRAY", elementDataType: "DOUBLE" })],
    },
  ],
};

/** LTE gateway, serial numbers `66…`: returns devEUI and imei, has MAC and WLAN MAC addresses. */
export const GATEWAY: DeviceModel = {
  key: "gateway",
  model: "LinkHub G66",
  serialPrefix: "66",
  deviceType: "GATEWAY",
  deviceTypeInQuery: "GATEWAY",
  hardwareVersion: "G66-HW-3.0",
  firmwareVersion: "5.2.1",
  returnsDevEUI: true,
  returnsImei: true,
  hasBattery: false,
  hasMac: true,
  hasWlanMac: true,
  tslVersions: [tsl],
};
