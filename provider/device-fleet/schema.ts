/**
 * The DeviceFleet's part of the plugin's package schema.
 *
 * Its input `devices` is a list of entries (what a program declares: an inventory read line by
 * line), its output `devices` a map from serial number to what the platform reports. Pulumi's
 * schema keeps a resource's inputs (`inputProperties`) and outputs (`properties`) apart, so one name
 * may have two shapes: the generated SDKs take the list in the resource's args and expose the map as
 * the resource's output, as the dynamic DeviceFleet does. The plugin's Check answers the entries
 * keyed by serial number (the checked inputs the engine records), so that `preview --diff` shows a
 * path per device and field, `devices["240000A10003"].name`, which the engine resolves against the
 * old and new checked inputs.
 */
import { DEVICE_FIELD_SCHEMA, OWNER_MARKER_SCHEMA } from "../device/schema";
import {
  boolean,
  integer,
  map,
  ref,
  string,
  list,
  type EnumTypeSpec,
  type ObjectTypeSpec,
  type PropertySpec,
  type ResourceSpec,
  type TypeContributions,
} from "../core/schema-spec";
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, type SETTING_INPUTS } from "./inputs";
import { withExamples } from "../core/schema-examples";
import { DEVICE_FLEET_EXAMPLES } from "./examples";

/** One declared device of a fleet: a Device's declared fields. */
const deviceFleetDevice: ObjectTypeSpec = {
  type: "object",
  description: "One device of a fleet: the declared fields of a Device, without its per-device options.",
  properties: DEVICE_FIELD_SCHEMA,
  required: ["sn", "name"],
};

/** What the fleet's `devices` output holds per device (state.ts `FleetDeviceInfo`). */
const fleetDeviceInfo: ObjectTypeSpec = {
  type: "object",
  description:
    "What the platform reports about a device of a fleet that does not change on its own (nothing that does is " +
    "stored, so a refresh of an unchanged fleet changes nothing).",
  properties: {
    deviceId: string("The platform's id of the device: a string of digits."),
    devEUI: string("The device's EUI."),
    imei: string("The device's IMEI."),
    model: string("The device's model."),
    deviceType: string("`GATEWAY`, `SUB_DEVICE` or `COMMON`."),
  },
  required: ["deviceId"],
};

const onRemove: EnumTypeSpec = {
  type: "string",
  description: "What removing a device from a fleet's `devices` (or the fleet itself) does.",
  enum: [
    { value: "delete", name: "Delete", description: "Delete the device from the platform (the default)." },
    {
      value: "release",
      name: "Release",
      description: "Stop managing the device and leave it on the platform.",
    },
  ],
};

/** The fleet's settings: inputs, and recorded as outputs too. */
const SETTINGS: Readonly<Record<(typeof SETTING_INPUTS)[number], PropertySpec>> = {
  adoptExisting: boolean(
    "Adopt devices already in this application with a declared serial number (default `true`); `false` makes " +
      "each of them an error naming its deviceId.",
  ),
  takeOverRps: boolean("Before adding a device, delete its RPS record if there is one."),
  concurrency: integer(
    `Platform requests of this fleet in flight at once (default ${DEFAULT_CONCURRENCY}, 1–${MAX_CONCURRENCY}).`,
  ),
  onRemove: ref(
    "OnRemove",
    'What removing a device from `devices` (or the fleet) does: `"delete"` it from the platform (default), or ' +
      '`"release"` it — stop managing it and leave it there.',
  ),
  maxRemovals: integer(
    "An update that would remove more devices than this fails at preview, naming the count and the first serial " +
      "numbers, and an `up` in which the program no longer declares a fleet holding more devices fails instead " +
      "of deleting them: a guard against a truncated inventory file (`pulumi destroy` is not limited).",
  ),
  takeOver: list(
    string("A serial number."),
    "Serial numbers this fleet may take over from another stack: a device whose owner tag names another stack is " +
      "refused (nothing written), naming that stack, unless listed here; listed, it is adopted and its owner tag " +
      "rewritten to name this stack. The other stack then deletes nothing of it.",
  ),
  takeOverFrom: list(
    string('A stack, `"<project>/<stack>"` as its owner tag names it.'),
    "Stacks whose every device this fleet may take over, as `takeOver` does for one serial number: a lost stack " +
      '(`pulumi stack rm --force`, a lost backend) is `takeOverFrom: ["fleet/dev"]`, not a list of its devices. ' +
      "`<project>/<stack>` takes over from every stack of that name (on any backend); " +
      "`<project>/<stack>@<instance>`, as the owner tag shows it, from that one only. `devplatform export " +
      "--take-over` writes it.",
  ),
};

/** The DeviceFleet resource. */
export const deviceFleetResourceSpec: ResourceSpec = {
  description: withExamples(
    "Many devices as one engine resource, for fleets of hundreds to tens of thousands, reconciled by serial " +
      "number with the platform's per-device operations, in parallel. Its id is the fleet's name (the resource's " +
      "name): keep it stable.",
    DEVICE_FLEET_EXAMPLES,
  ),
  inputProperties: {
    devices: list(
      ref("DeviceFleetDevice"),
      "The devices of the fleet, each by the Device rules (errors name the entry's index, serial number and " +
        "field); serial numbers unique without regard to case; may be empty. A change to one entry updates that " +
        "device only; an added entry is added (or adopted), a removed one deleted or released (`onRemove`).",
    ),
    ...SETTINGS,
  },
  requiredInputs: ["devices"],
  properties: {
    deviceIds: map(
      string("A deviceId."),
      "Serial number (as declared) → deviceId, a string of digits. A DeviceConfig takes it as it is.",
    ),
    devices: map(
      ref("FleetDeviceInfo"),
      "Serial number (as declared) → what the platform reports about the device that does not change on its own.",
    ),
    ownerMarker: OWNER_MARKER_SCHEMA,
    ...SETTINGS,
  },
  required: ["deviceIds", "devices"],
};

/** The types the fleet refers to. */
export const deviceFleetTypes: TypeContributions = {
  objects: { DeviceFleetDevice: deviceFleetDevice, FleetDeviceInfo: fleetDeviceInfo },
  enums: { OnRemove: onRemove },
};
