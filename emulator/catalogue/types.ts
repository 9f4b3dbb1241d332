/**
 * The TSL (Thing Specification Language) model shapes of platform-api.md, and the emulator's device
 * model records that carry them.
 */

/** Values of `dataType` and `elementDataType`. */
export const DATA_TYPES = [
  "BOOL",
  "STRING",
  "STRUCT",
  "DATE",
  "ARRAY",
  "INT",
  "LONG",
  "FLOAT",
  "DOUBLE",
  "ENUM",
] as const;
/** A TSL data type. */
export type DataType = (typeof DATA_TYPES)[number];

/** `R` read-only, `W` write-only, `RW` readable and writable. */
export type AccessMode = "R" | "W" | "RW";

/** Encodings a STRING may declare. */
export type StringEncoding = "HEX" | "ASCII" | "UTF8" | "BASE64";

/** Validation rules of a dataSpec. */
export interface Validator {
  min?: number;
  max?: number;
  minSize?: number;
  maxSize?: number;
  required?: boolean;
}

/** A property's, parameter's or output's data definition. */
export interface DataSpec {
  dataType: DataType;
  elementDataType?: DataType;
  parentId?: string;
  defaultValue?: string;
  unitName?: string;
  fractionDigits?: number;
  coefficient?: number;
  validator?: Validator;
  encoding?: StringEncoding;
  /** Enum value (or `false`/`true` for BOOL) → display name. */
  mapping?: Record<string, string>;
}

/** A TSL property; STRUCT children are listed too, with ids `<parent>.<child>` and `dataSpec.parentId`. */
export interface TslProperty {
  id: string;
  propertyKey: string;
  name: string;
  description?: string;
  accessMode: AccessMode;
  dataSpec: DataSpec;
}

/** An event output or a service input/output. */
export interface TslParameter {
  id: string;
  propertyKey: string;
  name: string;
  description?: string;
  dataSpec: DataSpec;
  /** Id of the property this parameter refers to. */
  ref?: string;
}

/** A TSL event. */
export interface TslEvent {
  id: string;
  name: string;
  description: string;
  type: "INFO" | "WARN" | "ERROR";
  outputs: TslParameter[];
}

/** A TSL service. */
export interface TslService {
  id: string;
  name: string;
  description: string;
  callType: "SYNC" | "ASYNC";
  inputs: TslParameter[];
  outputs: TslParameter[];
}

/** A TSL model, as Query the TSL Model of a Device returns it. */
export interface TslModel {
  version: string;
  properties: TslProperty[];
  events: TslEvent[];
  services: TslService[];
}

/** `deviceType` values as documented. */
export type DeviceType = "GATEWAY" | "SUB_DEVICE" | "COMMON";

/** A product model of the catalogue. */
export interface DeviceModel {
  /** Short key: `sensor`, `gateway`, `controller`, `sub-device`. */
  key: string;
  /** The `model` field of devices of this model. */
  model: string;
  /** Serial-number prefix (matched case-insensitively) that selects this model. */
  serialPrefix: string;
  deviceType: DeviceType;
  /**
   * How Query a Specific Device spells `deviceType`: the platform's examples write `SUB-DEVICE`,
   * so the sub-device model serves that spelling there (search results use the documented value).
   */
  deviceTypeInQuery: string;
  hardwareVersion: string;
  firmwareVersion: string;
  /** Add/Update results and device responses carry `devEUI` ("returned only for some product models"). */
  returnsDevEUI: boolean;
  /** Likewise for `imei`. */
  returnsImei: boolean;
  /** Battery powered: devices carry `electricity`. */
  hasBattery: boolean;
  /** Devices carry `mac` in search results. */
  hasMac: boolean;
  /** Devices carry `wlanMac` in search results. */
  hasWlanMac: boolean;
  /** TSL model versions; the first is what a newly added device uses. */
  tslVersions: TslModel[];
}
