/** Schemas of devices: inputs of Add/Update/Search, and the Device and Device_Details resources. */
import { z } from "zod";
import { idSchema, numberLike, opt, pageSchema, sortSchema, stringLike } from "./common";
import type { JsonInput } from "../lossless-json";
import { openEnum } from "./open-enum";

/** `deviceType` values as documented. */
export const DEVICE_TYPES = ["GATEWAY", "SUB_DEVICE", "COMMON"] as const;

/**
 * Documented spelling is `SUB_DEVICE`; the document's examples spell it `SUB-DEVICE`. Any other
 * value is kept as the platform sent it (see open-enum.ts).
 */
export const deviceTypeSchema = openEnum(DEVICE_TYPES, (v) => (v === "SUB-DEVICE" ? "SUB_DEVICE" : v));

/** `GATEWAY`, `SUB_DEVICE` or `COMMON`, or a value the platform sent that is none of them. */
export type DeviceType = z.output<typeof deviceTypeSchema>;

/**
 * Both families appear: `ACTIVATE`/`UNACTIVATED` on a single-device query, `ENABLED`/`DISABLED` in
 * search results (and the document mentions a misspelling of `ENABLED`). Values are passed on as
 * the platform sent them; an unknown one never fails the response.
 */
export const RPS_STATUSES = ["ACTIVATE", "UNACTIVATED", "ENABLED", "DISABLED"] as const;
export const rpsStatusSchema = openEnum(RPS_STATUSES);

/** RPS status in either of the platform's two spellings, or a value that is neither. */
export type RpsStatus = z.output<typeof rpsStatusSchema>;

/** `connectStatus` values as documented. */
export const CONNECT_STATUSES = ["ONLINE", "OFFLINE", "DISCONNECT"] as const;
/** A device's connection state as the platform reports it; unknown values are kept. */
export const connectStatusSchema = openEnum(CONNECT_STATUSES);
/** `ONLINE`, `OFFLINE`, `DISCONNECT`, or a value the platform sent that is none of them. */
export type ConnectStatus = z.output<typeof connectStatusSchema>;

/** `licenseStatus` values as documented. */
export const LICENSE_STATUSES = ["VALID", "INVALID"] as const;
/** A device's licence state as the platform reports it; unknown values are kept. */
export const licenseStatusSchema = openEnum(LICENSE_STATUSES);
/** `VALID`, `INVALID`, or a value the platform sent that is neither. */
export type LicenseStatus = z.output<typeof licenseStatusSchema>;

/**
 * `autopStatus` values as the platform's API reference lists them: the device's auto-provisioning
 * state (`SUCCESS` its template was applied, `WAITING` not yet, `DISABLE` auto-provisioning off).
 */
export const AUTOP_STATUSES = ["SUCCESS", "WAITING", "DISABLE"] as const;
/** A device's auto-provisioning state as the platform reports it; unknown values are kept. */
export const autopStatusSchema = openEnum(AUTOP_STATUSES);
/** `SUCCESS`, `WAITING`, `DISABLE`, or a value the platform sent that is none of them. */
export type AutopStatus = z.output<typeof autopStatusSchema>;

/** A timestamp Long; small enough for a number, though some servers send it as digits. */
const timestampSchema = numberLike;

export const applicationSchema = z.object({
  applicationId: opt(idSchema),
  applicationName: opt(z.string()),
});

/** Device, as Query a Specific Device returns it. Every field may be absent. */
export const deviceSchema = z.object({
  deviceId: idSchema,
  sn: opt(z.string()),
  devEUI: opt(z.string()),
  imei: opt(z.string()),
  name: opt(z.string()),
  description: opt(z.string()),
  project: opt(z.string()),
  tag: opt(z.array(z.string())),
  model: opt(z.string()),
  hardwareVersion: opt(stringLike),
  firmwareVersion: opt(stringLike),
  electricity: opt(numberLike),
  lastUpdateTime: opt(timestampSchema),
  application: opt(applicationSchema),
  rpsStatus: opt(rpsStatusSchema),
  connectStatus: opt(connectStatusSchema),
  licenseStatus: opt(licenseStatusSchema),
  deviceType: opt(deviceTypeSchema),
  autopStatus: opt(autopStatusSchema),
});

/** A device on the platform. */
export type Device = z.output<typeof deviceSchema>;

/** Device_Details, an element of search results: Device plus MAC addresses. */
export const deviceDetailsSchema = deviceSchema.extend({
  mac: opt(z.string()),
  wlanMac: opt(z.string()),
});

/** A device as a search returns it. */
export type DeviceDetails = z.output<typeof deviceDetailsSchema>;

/** Search_Result. */
export const deviceSearchResultSchema = pageSchema(deviceDetailsSchema);

/** One page of a device search. */
export type DeviceSearchResult = z.output<typeof deviceSearchResultSchema>;

/** Added or updated device result. */
export const deviceWriteResultSchema = z.object({
  deviceId: idSchema,
  sn: opt(z.string()),
  /** Not in the document's example; kept when a platform reports the project it applied. */
  project: opt(z.string()),
  devEUI: opt(z.string()),
  imei: opt(z.string()),
});

/** What Add a Device and Update a Device Information return. */
export type DeviceWriteResult = z.output<typeof deviceWriteResultSchema>;

const tagsSchema = z.array(z.string().min(1)).max(20, "at most 20 tags per device");

/**
 * The profile template of auto-provisioning at add (the reference's TSL configuration template):
 * `properties` are TSL property id → value, as for Update Device Properties Incrementally.
 */
export const profileTemplateSchema = z.looseObject({
  version: z.string().optional(),
  type: z.string().optional(),
  properties: z.record(
    z.string(),
    z.custom<JsonInput>((value) => value !== undefined),
  ),
});

/** A profile template for `addDevice({ autoProvision: true, config })`. */
export type ProfileTemplate = z.input<typeof profileTemplateSchema>;

/**
 * Input of {@link DevicePlatformClient.addDevice}. `autoProvision: true` applies `config`, a
 * profile template, to the device as it is added; the reference makes the template required then.
 * The client sends it as `config` (a JSON object) on `v1` and as `profile` (its JSON text) on
 * `v1.0`, as each version's reference names it.
 */
export const addDeviceInputSchema = z
  .object({
    snDevEUI: z.string().min(1),
    name: z.string().min(1),
    description: z.string().optional(),
    project: z.string().optional(),
    tag: tagsSchema.optional(),
    autoProvision: z.boolean().optional(),
    config: profileTemplateSchema.optional(),
  })
  .refine((input) => input.autoProvision !== true || input.config !== undefined, {
    path: ["config"],
    message: "a profile template is required when autoProvision is true",
  })
  .refine((input) => input.config === undefined || input.autoProvision === true, {
    path: ["autoProvision"],
    message: "must be true when a profile template (config) is given",
  });

/** Input of `addDevice`. */
export type AddDeviceInput = z.input<typeof addDeviceInputSchema>;

/**
 * Input of {@link DevicePlatformClient.updateDevice}; PUT replaces name, description and tags.
 * `project` is the device's project tag, changed in place (the platform's API reference lists it,
 * optional: "Update the device's project tag"); leave it out to keep the project, `""` clears it.
 */
export const updateDeviceInputSchema = z.object({
  deviceId: z.string().regex(/^\d+$/, "deviceId must be a string of digits"),
  name: z.string().min(1),
  tslVersion: z.string().optional(),
  description: z.string().optional(),
  project: z.string().optional(),
  tag: tagsSchema.optional(),
});

/** Input of `updateDevice`. */
export type UpdateDeviceInput = z.input<typeof updateDeviceInputSchema>;

/** Filters of Search Specific Devices (strict: a request), `pageSize`/`pageNumber` default to 100 and 1. */
export const deviceFilterSchema = z.object({
  sorts: z.array(sortSchema).optional(),
  sn: z.string().optional(),
  devEUI: z.string().optional(),
  imei: z.string().optional(),
  rpsStatus: z.array(z.enum(["ENABLED", "DISABLED"])).optional(),
  connectStatus: z.array(z.enum(CONNECT_STATUSES)).optional(),
  name: z.string().optional(),
  model: z.string().optional(),
  hardwareVersion: z.string().optional(),
  firmwareVersion: z.string().optional(),
  electricityMin: z.number().int().optional(),
  electricityMax: z.number().int().optional(),
  description: z.string().optional(),
  tag: z.array(z.string()).optional(),
  deviceType: z.array(z.enum(DEVICE_TYPES)).optional(),
  licenseStatus: z.array(z.enum(LICENSE_STATUSES)).optional(),
  autopStatus: z.array(z.enum(AUTOP_STATUSES)).optional(),
  mac: z.string().optional(),
  wlanMac: z.string().optional(),
});

/** Filters for `listDevices`. */
export type DeviceFilter = z.input<typeof deviceFilterSchema>;

/** A search query: filters plus paging. */
export const deviceSearchQuerySchema = deviceFilterSchema.extend({
  pageSize: z.number().int().min(1).default(100),
  pageNumber: z.number().int().min(1).default(1),
});

/** Input of `searchDevices`. */
export type DeviceSearchQuery = z.input<typeof deviceSearchQuerySchema>;
