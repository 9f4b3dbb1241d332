/**
 * The DeviceConfig's part of the plugin's package schema: its inputs (inputs.ts checks them), and
 * the outputs state.ts and pending.ts record.
 */
import {
  anyValue,
  boolean,
  element,
  list,
  map,
  ref,
  string,
  type EnumTypeSpec,
  type ObjectTypeSpec,
  type PropertySpec,
  type ResourceSpec,
  type TypeContributions,
} from "../core/schema-spec";
import type { CONFIG_INPUTS } from "./inputs";
import { withExamples } from "../core/schema-examples";
import { DEVICE_CONFIG_EXAMPLES } from "./examples";

const deviceId = string("A deviceId: a string of digits.");

const INPUTS: Readonly<Record<(typeof CONFIG_INPUTS)[number], PropertySpec>> = {
  deviceIds: {
    description:
      "The device or devices to configure: one deviceId (a string of digits, e.g. a Device's `deviceId`), a list " +
      "of them, or a DeviceFleet's `deviceIds` (serial number → deviceId) to configure the whole fleet. Changing " +
      "the set updates in place: the new set is configured.",
    oneOf: [
      { type: "string" },
      { type: "array", items: { type: "string" } },
      { type: "object", additionalProperties: { type: "string" } },
    ],
  },
  properties: map(
    anyValue("A value."),
    "TSL property id → value; give `properties` or `profile`, not both. Each property must be writable " +
      "(accessMode `W` or `RW`) and its value must fit the device's TSL model (checked at preview). A STRUCT is " +
      'an object keyed by child id (`{ high: 30 }`, or by full id `{ "alarmThreshold.high": 30 }`); a LONG ' +
      "beyond 2^53 is a string of digits. Each property is one diff path: `properties.reportInterval`.",
  ),
  profile: map(
    anyValue("A value."),
    "PROFILE template key → value, applied by configuration tasks. Switching between `properties` and " +
      "`profile` replaces the resource.",
  ),
  version: string("Config version carried by configuration tasks."),
  resetOnDelete: boolean(
    "On delete, write the TSL `defaultValue` of each managed writable property (default `false`: the devices " +
      "keep their configuration). Also applies to devices and properties dropped later.",
  ),
};

const configMethod: EnumTypeSpec = {
  type: "string",
  description: "How a DeviceConfig is written.",
  enum: [
    {
      value: "patch",
      name: "Patch",
      description: "One device with `properties`: Update Device Properties Incrementally.",
    },
    {
      value: "tasks",
      name: "Tasks",
      description: "Several devices, or `profile`: Create Configuration Tasks.",
    },
  ],
};

const pendingUnknown: ObjectTypeSpec = {
  type: "object",
  description: "A task call whose answer was lost (the platform may have created the tasks).",
  properties: {
    since: string("When the call was made (ISO 8601)."),
    detail: string("What failed: the method, path, status or transport reason, and the requestId."),
    visible: boolean("Whether Get Configuration can show the call's result (TSL: yes; PROFILE: no)."),
  },
  required: ["since", "detail", "visible"],
};

const pending: ObjectTypeSpec = {
  type: "object",
  description: "What one device is still owed after a task call that failed.",
  properties: {
    keys: list(
      element(string("A key.")),
      "The declared property ids or template keys the device did not get.",
    ),
    unknown: ref("DeviceConfigPendingUnknown", "Present when the call's answer was lost."),
  },
  required: ["keys"],
};

/** The DeviceConfig resource. */
export const deviceConfigResourceSpec: ResourceSpec = {
  description: withExamples(
    "The configuration of one or many devices, validated against each device's TSL model before anything is " +
      "written; written by PATCH (one device with `properties`) or configuration tasks (several devices, or a " +
      "PROFILE template). Its id is the deviceId (one device) or one derived from the set.",
    DEVICE_CONFIG_EXAMPLES,
  ),
  inputProperties: INPUTS,
  requiredInputs: ["deviceIds"],
  properties: {
    ...INPUTS,
    deviceIds: list(
      element(deviceId),
      "The configured devices, as declared; `pending` names those the platform has not confirmed.",
    ),
    properties: map(
      anyValue("A value."),
      "The properties applied (a PATCH the platform took only in part keeps what it took).",
    ),
    method: ref("ConfigMethod", "`patch` for one device with properties, `tasks` otherwise."),
    taskIds: map(
      string("A taskId."),
      "deviceId → taskId of the latest configuration task of each device (empty for `patch`).",
    ),
    pending: map(
      ref("DeviceConfigPending"),
      "deviceId → what the device is still owed after a task call that failed; absent when the platform " +
        "confirmed everything. The next `pulumi up` sends it.",
    ),
    ownerMarker: string(
      "The owner tag of the stack that last wrote this configuration, `<devplatform:ownerTag><project>/<stack>@<instance>` " +
        "(the tag its Devices and DeviceFleets write on their devices): `resetOnDelete` resets a device carrying it " +
        "(or this stack's tag now, or none), even after the stack was renamed or given another prefix, and leaves a " +
        "device another stack's tag names as it is. Absent on configurations written outside a deployment or " +
        "before configurations recorded it; never a diff.",
    ),
  },
  required: ["deviceIds", "method", "taskIds"],
};

/** The types the DeviceConfig refers to. */
export const deviceConfigTypes: TypeContributions = {
  objects: { DeviceConfigPending: pending, DeviceConfigPendingUnknown: pendingUnknown },
  enums: { ConfigMethod: configMethod },
};
