// One device, its configuration, and what the platform reports about it.
import * as devplatform from "@devplatform/pulumi";

const device = new devplatform.Device("lobby", {
  sn: "240000A10004",
  name: "lobby-temperature",
  tags: ["floor-1"],
});
new devplatform.DeviceConfig("lobby-config", {
  deviceIds: [device.deviceId],
  properties: { reportInterval: 900 },
});
export const deviceId = device.deviceId;
export const firmware = devplatform.getDeviceOutput({ deviceId: device.deviceId }).firmwareVersion;
