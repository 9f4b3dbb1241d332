/**
 * Records the emulator keeps. Ids are strings of digits throughout; they are rendered as JSON strings
 * or, with `numericIds`, as exact JSON numbers only when a response is written.
 */

/** `connectStatus` values (platform-api.md, Device). */
export const CONNECT_STATUSES = ["ONLINE", "OFFLINE", "DISCONNECT"] as const;
/** A device's connection state. */
export type ConnectStatus = (typeof CONNECT_STATUSES)[number];

/** `licenseStatus` values. */
export const LICENSE_STATUSES = ["VALID", "INVALID"] as const;
/** A device's licence state. */
export type LicenseStatus = (typeof LICENSE_STATUSES)[number];

/** A property value as stored: JSON data, with 64-bit integers beyond 2^53 as `bigint`. */
export type PropertyValue =
  boolean | number | bigint | string | PropertyValue[] | { [key: string]: PropertyValue };

/**
 * `autopStatus` values (the platform's API reference): `SUCCESS` the auto-provisioning template was
 * applied, `WAITING` it was given and is not applied yet, `DISABLE` auto-provisioning is off.
 */
export const AUTOP_STATUSES = ["SUCCESS", "WAITING", "DISABLE"] as const;
/** A device's auto-provisioning state. */
export type AutopStatus = (typeof AUTOP_STATUSES)[number];

/** Fields whose value the control API can make the emulator send verbatim (see `DeviceRecord.sendAs`). */
export const SEND_AS_FIELDS = [
  "rpsStatus",
  "connectStatus",
  "licenseStatus",
  "deviceType",
  "autopStatus",
] as const;
/** One of {@link SEND_AS_FIELDS}. */
export type SendAsField = (typeof SEND_AS_FIELDS)[number];

/** A map of TSL property id to value (a STRUCT is an object keyed by its children's full ids). */
export type PropertyMap = Record<string, PropertyValue>;

/** A third-party application on the platform; the emulator's credentials belong to one of them. */
export interface Application {
  applicationId: string;
  applicationName: string;
}

/** A device on the platform. */
export interface DeviceRecord {
  deviceId: string;
  applicationId: string;
  /** Serial number as it was added (comparisons ignore case). */
  sn: string;
  name: string;
  description?: string;
  project?: string;
  tag: string[];
  /** Catalogue key of the device's model, chosen by serial-number prefix. */
  modelKey: string;
  /** The selected TSL model version of the device's model. */
  tslVersion: string;
  devEUI?: string;
  imei?: string;
  mac?: string;
  wlanMac?: string;
  electricity?: number;
  connectStatus: ConnectStatus;
  licenseStatus: LicenseStatus;
  /** RPS enabled: rendered `ACTIVATE`/`ENABLED`, otherwise `UNACTIVATED`/`DISABLED`. */
  rpsEnabled: boolean;
  /**
   * Values sent verbatim instead of the rendered ones, in both the query and the search view: what
   * a platform that sends an undocumented or misspelled value looks like (set by the control API).
   */
  sendAs?: Partial<Record<SendAsField, string>>;
  /** Emulator-clock milliseconds when the device was added. */
  createdAt: number;
  /** Emulator-clock milliseconds of the last property change ("most recent report"). */
  lastUpdateTime: number;
  /** Current values of the writable TSL properties, keyed by top-level property id. */
  properties: PropertyMap;
  /** Values applied by PROFILE configuration tasks, keyed by the profile key. */
  profile: PropertyMap;
  /** Auto-provisioning state; absent (devices from older state files) reads as `DISABLE`. */
  autopStatus?: AutopStatus;
  /** The auto-provisioning template's properties while `autopStatus` is `WAITING` (checked at add). */
  pendingTemplate?: PropertyMap;
}

/** One property report of a device: what it reported, and when (emulator-clock milliseconds). */
export interface PropertyReportRecord {
  deviceId: string;
  /** Emulator-clock milliseconds of the report. */
  ts: number;
  /** Order of recording across the emulator: ties of `ts` are ordered by it. */
  seq: number;
  /** The values reported, in stored form (STRUCTs keyed by their children's full ids). */
  properties: PropertyMap;
}

/** One accepted call of Invoke Device Services Asynchronously. */
export interface ServiceCallRecord {
  /** The `requestId` of the answer. */
  requestId: string;
  deviceId: string;
  applicationId: string;
  serviceId: string;
  /** The inputs exactly as the call sent them (64-bit integers beyond 2^53 as `bigint`). */
  inputs: PropertyMap;
  /** Emulator-clock milliseconds of the call. */
  calledAt: number;
}

/** An RPS profile record. */
export interface RpsRecord {
  sn: string;
  profileUrl: string;
  applicationId: string;
  createdAt: number;
  updatedAt: number;
}

/** Configuration task types named by the API. */
export const TASK_TYPES = ["TSL", "PROFILE"] as const;
/** A configuration task type. */
export type TaskType = (typeof TASK_TYPES)[number];

/** States of a configuration task (the platform's are not shown; these are the emulator's). */
export type TaskStatus = "PENDING" | "SUCCEEDED" | "FAILED";

/** One element of a PROFILE config's `values`. */
export interface ProfileValue {
  key: string;
  value: PropertyValue;
}

/** The `config` of a task as accepted. */
export interface TaskConfig {
  version?: string;
  type?: string;
  properties?: PropertyMap;
  values?: ProfileValue[];
}

/** A configuration task for one device. */
export interface TaskRecord {
  taskId: string;
  deviceId: string;
  applicationId: string;
  type: TaskType;
  config: TaskConfig;
  status: TaskStatus;
  createdAt: number;
  finishedAt?: number;
  /** What the task wrote: TSL property values, or profile values keyed by key. */
  applied?: PropertyMap;
  /** Why a FAILED task failed. */
  error?: string;
}

/** An issued access token. */
export interface AccessTokenRecord {
  token: string;
  applicationId: string;
  expiresAt: number;
}

/** An issued refresh token and the access token issued with it (revoked when this one is used). */
export interface RefreshTokenRecord {
  token: string;
  applicationId: string;
  expiresAt: number;
  accessToken: string;
}
