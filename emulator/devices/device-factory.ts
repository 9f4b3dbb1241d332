import { createHash } from "node:crypto";
import { modelForSerial, tslOf } from "../catalogue";
import type { DeviceRecord } from "../state/types";
import { initialConfiguration } from "../tsl/default-values";

/** What Add a Device (or seeding through the control API) provides. */
export type NewDevice = Pick<
  DeviceRecord,
  "deviceId" | "applicationId" | "sn" | "name" | "description" | "project" | "tag"
> & { now: number };

/** Deterministic pseudo-random bytes per serial number, so a device's identifiers never change. */
function digest(sn: string): Buffer {
  return createHash("sha256").update(sn.toUpperCase()).digest();
}

/** A 16-hex-digit EUI: the serial number itself when it has 16 digits, else zero-padded. */
function devEuiFor(sn: string): string {
  return sn.toUpperCase().padStart(16, "0");
}

/** A 15-digit IMEI-like number with the `86` reporting-body prefix. */
function imeiFor(bytes: Buffer): string {
  return `86${(bytes.readBigUInt64BE(0) % 10n ** 13n).toString().padStart(13, "0")}`;
}

/** A locally administered unicast MAC address; `offset` varies the last octet (for wlanMac). */
function macFor(bytes: Buffer, offset: number): string {
  const octets = [
    0x02,
    bytes[8] ?? 0,
    bytes[9] ?? 0,
    bytes[10] ?? 0,
    bytes[11] ?? 0,
    ((bytes[12] ?? 0) + offset) & 0xff,
  ];
  return octets.map((o) => o.toString(16).padStart(2, "0").toUpperCase()).join(":");
}

/**
 * A new device record: the model follows from the serial-number prefix, identifiers (devEUI, imei,
 * MAC addresses) and battery level derive from the serial number, the configuration starts at the TSL
 * defaults, and the device is ONLINE with a VALID licence and RPS disabled.
 */
export function createDevice(input: NewDevice): DeviceRecord {
  const model = modelForSerial(input.sn);
  const tsl = tslOf(model);
  const bytes = digest(input.sn);
  const device: DeviceRecord = {
    deviceId: input.deviceId,
    applicationId: input.applicationId,
    sn: input.sn,
    name: input.name,
    tag: [...input.tag],
    modelKey: model.key,
    tslVersion: tsl.version,
    connectStatus: "ONLINE",
    licenseStatus: "VALID",
    rpsEnabled: false,
    createdAt: input.now,
    lastUpdateTime: input.now,
    properties: initialConfiguration(tsl),
    profile: {},
  };
  if (input.description !== undefined) device.description = input.description;
  if (input.project !== undefined) device.project = input.project;
  if (model.returnsDevEUI) device.devEUI = devEuiFor(input.sn);
  if (model.returnsImei) device.imei = imeiFor(bytes);
  if (model.hasMac) device.mac = macFor(bytes, 0);
  if (model.hasWlanMac) device.wlanMac = macFor(bytes, 1);
  if (model.hasBattery) device.electricity = 20 + ((bytes[0] ?? 0) % 81);
  return device;
}
