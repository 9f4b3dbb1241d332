import { z } from "zod";
import { modelByKey } from "../catalogue";
import { pagingShape, sortsSchema, type SortSpec } from "../routes/schemas";
import type { DeviceRecord } from "../state/types";
import { compareIds, sortItems, type SortKey } from "./sorting";

/** Device fields a search may sort on: every field of Device_Details. */
export const DEVICE_SORT_PROPERTIES = [
  "sn",
  "devEUI",
  "imei",
  "name",
  "model",
  "hardwareVersion",
  "firmwareVersion",
  "electricity",
  "lastUpdateTime",
  "application",
  "project",
  "description",
  "deviceId",
  "connectStatus",
  "licenseStatus",
  "deviceType",
  "rpsStatus",
  "autopStatus",
  "tag",
  "mac",
  "wlanMac",
] as const;

/** Accepts one value or an array of values of an enumerated filter; aliases map to the canonical value. */
function enumFilter(values: readonly string[], aliases: Record<string, string> = {}) {
  const one = z
    .string()
    .transform((v) => aliases[v] ?? v)
    .pipe(z.enum(values as [string, ...string[]], { error: `one of ${values.join(", ")}` }));
  return z.union([one.transform((v) => [v]), z.array(one)]).optional();
}

const text = z.string().optional();

/** Body of Search Specific Devices. */
export const deviceSearchSchema = z.object({
  ...pagingShape,
  sorts: sortsSchema(DEVICE_SORT_PROPERTIES),
  sn: text,
  devEUI: text,
  imei: text,
  name: text,
  model: text,
  hardwareVersion: text,
  firmwareVersion: text,
  description: text,
  mac: text,
  wlanMac: text,
  rpsStatus: enumFilter(["ENABLED", "DISABLED"], { ACTIVATE: "ENABLED", UNACTIVATED: "DISABLED" }),
  connectStatus: enumFilter(["ONLINE", "OFFLINE", "DISCONNECT"]),
  deviceType: enumFilter(["GATEWAY", "SUB_DEVICE", "COMMON"], { "SUB-DEVICE": "SUB_DEVICE" }),
  licenseStatus: enumFilter(["VALID", "INVALID"]),
  autopStatus: enumFilter(["SUCCESS", "WAITING", "DISABLE"]),
  tag: z.union([z.string().transform((t) => [t]), z.array(z.string())]).optional(),
  electricityMin: z.number().optional(),
  electricityMax: z.number().optional(),
});

/** A parsed device search. */
export type DeviceSearch = z.infer<typeof deviceSearchSchema>;

const TEXT_FILTERS = [
  "sn",
  "devEUI",
  "imei",
  "name",
  "model",
  "hardwareVersion",
  "firmwareVersion",
  "description",
  "mac",
  "wlanMac",
] as const;

/** The value of a device field as search sees it (what Device_Details would show). */
function fieldOf(device: DeviceRecord, property: string): SortKey {
  const model = modelByKey(device.modelKey);
  switch (property) {
    case "model":
      return model.model;
    case "hardwareVersion":
      return model.hardwareVersion;
    case "firmwareVersion":
      return model.firmwareVersion;
    case "deviceType":
      return model.deviceType;
    case "rpsStatus":
      return device.rpsEnabled ? "ENABLED" : "DISABLED";
    case "autopStatus":
      return device.autopStatus ?? "DISABLE";
    case "deviceId":
      return BigInt(device.deviceId);
    case "application":
      return BigInt(device.applicationId);
    case "tag":
      return device.tag.length === 0 ? undefined : device.tag.join(",");
    default: {
      const value = (device as unknown as Record<string, unknown>)[property];
      return typeof value === "string" || typeof value === "number" ? value : undefined;
    }
  }
}

function matchesText(device: DeviceRecord, search: DeviceSearch): boolean {
  return TEXT_FILTERS.every((field) => {
    const wanted = search[field];
    if (wanted === undefined || wanted === "") return true;
    const value = fieldOf(device, field);
    return typeof value === "string" && value.toLowerCase().includes(wanted.toLowerCase());
  });
}

function matchesLists(device: DeviceRecord, search: DeviceSearch): boolean {
  const lists = ["rpsStatus", "connectStatus", "deviceType", "licenseStatus", "autopStatus"] as const;
  const listsMatch = lists.every((field) => {
    const wanted = search[field];
    return !wanted || wanted.length === 0 || wanted.includes(String(fieldOf(device, field)));
  });
  const tags = search.tag;
  return listsMatch && (!tags || tags.length === 0 || tags.some((t) => device.tag.includes(t)));
}

function matchesElectricity(device: DeviceRecord, search: DeviceSearch): boolean {
  const { electricityMin: min, electricityMax: max } = search;
  if (min === undefined && max === undefined) return true;
  const level = device.electricity;
  return level !== undefined && (min === undefined || level >= min) && (max === undefined || level <= max);
}

/**
 * Filters and sorts devices. Text filters match a case-insensitive substring; list filters match any
 * listed value; `tag` matches devices carrying any listed tag; the electricity bounds are inclusive
 * and exclude devices without a battery. Without sorts, devices come in creation order.
 */
export function searchDevices(devices: readonly DeviceRecord[], search: DeviceSearch): DeviceRecord[] {
  const matching = devices.filter(
    (d) => matchesText(d, search) && matchesLists(d, search) && matchesElectricity(d, search),
  );
  const sorts: SortSpec[] = search.sorts ?? [];
  return sortItems(matching, sorts, fieldOf, (a, b) => compareIds(a.deviceId, b.deviceId));
}
