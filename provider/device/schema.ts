/**
 * The Device's part of the plugin's package schema: its inputs, with the rules `check` enforces
 * (desired.ts, provider.ts), and the outputs the platform reports (outputs.ts). A fleet entry is a
 * declared device too, so its fields' descriptions come from here.
 */
import {
  boolean,
  element,
  list,
  number,
  string,
  type PropertySpec,
  type ResourceSpec,
} from "../core/schema-spec";
import type { DEVICE_OUTPUTS } from "./outputs";
import type { DEVICE_FIELDS } from "./desired";
import { withExamples } from "../core/schema-examples";
import { DEVICE_EXAMPLES } from "./examples";

/** The declared fields of a device (a Device's inputs, or one entry of a DeviceFleet). */
export const DEVICE_FIELD_SCHEMA: Readonly<Record<(typeof DEVICE_FIELDS)[number], PropertySpec>> = {
  sn: string(
    "Serial number or EUI (`snDevEUI` of Add a Device): 12–16 hex digits, compared without regard to case. " +
      "Changing it means another device: the Device is replaced (delete before create).",
  ),
  name: string("Device name: non-empty, no leading or trailing spaces. Changed in place."),
  description: string("Description: non-empty when given, no leading or trailing spaces. Changed in place."),
  project: string(
    "Project tag, changed in place by Update a Device Information (the deviceId and the device's configuration " +
      "stay); removing it clears the device's project.",
  ),
  tags: list(
    element(string("A tag.")),
    "At most 20 unique, non-empty tags, no leading or trailing spaces; their order is kept.",
  ),
  tslVersion: string(
    "TSL model version to select for the device, set right after it is added. The platform does not report it, " +
      "so a refresh keeps the declared one.",
  ),
};

/** A Device's options besides its declared fields. */
const DEVICE_OPTIONS: Readonly<Record<"takeOverRps" | "adoptExisting" | "takeOver", PropertySpec>> = {
  takeOverRps: boolean(
    "Before adding the device, delete its RPS record if there is one: the hand-over from RPS to platform " +
      "management in one `up`.",
  ),
  adoptExisting: boolean(
    "When the serial number is already in this application, adopt that device (default `true`, so an " +
      "interrupted `up` converges); `false` makes it an error naming the deviceId already there.",
  ),
  takeOver: boolean(
    "Take the device over from another stack whose owner tag it carries (`pulumi-stack:<project>/<stack>`): " +
      "without it, adopting or updating a device another stack manages is refused, naming that stack, and nothing " +
      "is written. The other stack then deletes nothing of it.",
  ),
};

/** What the platform reports about a device (outputs only; status fields never produce a diff). */
export const DEVICE_OUTPUT_SCHEMA: Readonly<
  Record<(typeof DEVICE_OUTPUTS)[number] | "deviceId", PropertySpec>
> = {
  deviceId: string(
    "The platform's id of the device: a string of digits (exact above 2^53). The resource's id.",
  ),
  devEUI: string("The device's EUI, as the platform reports it."),
  imei: string("The device's IMEI, as the platform reports it."),
  model: string("The device's model."),
  hardwareVersion: string("Hardware version."),
  firmwareVersion: string("Firmware version."),
  deviceType: string(
    "`GATEWAY`, `SUB_DEVICE` or `COMMON` (the platform's `SUB-DEVICE` spelling is normalised); another value " +
      "the platform sends is passed on.",
  ),
  connectStatus: string("`ONLINE`, `OFFLINE` or `DISCONNECT`; changes on its own and never produces a diff."),
  licenseStatus: string("`VALID` or `INVALID`; never produces a diff."),
  rpsStatus: string("`ACTIVATE` or `UNACTIVATED` (search results' `ENABLED`/`DISABLED` are normalised)."),
  autopStatus: string(
    "Auto-provisioning state: `SUCCESS` (a template was applied at add), `WAITING` (it waits for the " +
      "device) or `DISABLE` (added without auto-provisioning); another value the platform sends is passed " +
      "on. A status: never produces a diff.",
  ),
  applicationId: string("The id of the device's application: a string of digits."),
  applicationName: string("The name of the device's application."),
  electricity: number("Battery level as the platform reports it; changes on its own."),
  lastUpdateTime: number(
    "Time of the device's most recent report, as the platform gives it; changes on its own.",
  ),
};

/** The owner tag, an output of both a Device and a DeviceFleet. */
export const OWNER_MARKER_SCHEMA: PropertySpec = string(
  "The owner tag this stack wrote on the device(s), `<devplatform:ownerTag><project>/<stack>@<instance>` " +
    "(default prefix `pulumi-stack:`; the instance, 8 characters derived from the stack's backend, tells apart " +
    "stacks of one name on two backends): one of the platform's 20 tags, never part of `tags`, never a diff. A " +
    "device carrying the tag recorded here is this stack's whatever the tag names now (a renamed stack or project, " +
    "another prefix: the next `up` retags it). Absent on devices recorded before owner tags; the next `up` writes " +
    "it (its preview says so).",
);

/** The Device resource. */
export const deviceResourceSpec: ResourceSpec = {
  description: withExamples(
    "A device in the platform application, identified by its deviceId (the resource's id). Created by Add a " +
      "Device (or adopted, when its serial number is already in the application), updated in place by Update a " +
      "Device Information, replaced only when `sn` changes.",
    DEVICE_EXAMPLES,
  ),
  inputProperties: { ...DEVICE_FIELD_SCHEMA, ...DEVICE_OPTIONS },
  requiredInputs: ["sn", "name"],
  properties: {
    ...DEVICE_FIELD_SCHEMA,
    ...DEVICE_OPTIONS,
    ...DEVICE_OUTPUT_SCHEMA,
    ownerMarker: OWNER_MARKER_SCHEMA,
  },
  required: ["sn", "name", "deviceId"],
};
