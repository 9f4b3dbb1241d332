/**
 * The RpsFleet's part of the plugin's package schema: `records` in (a list, as a shipment's CSV is
 * read line by line), `profileUrls` out (serial number → URL, what the batch applied). The plugin's
 * Check answers the records keyed by serial number, so that `preview --diff` shows a path per
 * record, `records["AC0000F10004"]`.
 */
import {
  integer,
  list,
  map,
  ref,
  string,
  type ObjectTypeSpec,
  type PropertySpec,
  type ResourceSpec,
  type TypeContributions,
} from "../core/schema-spec";
import { withExamples } from "../core/schema-examples";
import { RPS_FLEET_EXAMPLES } from "./examples";
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, type SETTING_INPUTS } from "./inputs";

const rpsFleetRecord: ObjectTypeSpec = {
  type: "object",
  description: "One RPS record of a batch: the inputs of an RpsProfile.",
  properties: {
    sn: string(
      "Serial number of a device not on the platform: 12–16 hex digits, compared without regard to case.",
    ),
    profileUrl: string(
      "Absolute https URL of the device's profile; a change specifies it again (one request).",
    ),
  },
  required: ["sn", "profileUrl"],
};

const SETTINGS: Readonly<Record<(typeof SETTING_INPUTS)[number], PropertySpec>> = {
  concurrency: integer(
    `Platform requests of this batch in flight at once (default ${DEFAULT_CONCURRENCY}, 1–${MAX_CONCURRENCY}).`,
  ),
  maxRemovals: integer(
    "An update that would delete more records than this fails at preview, naming the count and the first serial " +
      "numbers: a guard against a truncated rps.csv. Without it, deleting more than half the batch's records at " +
      "once stops unless the stack sets devplatform:maxRemovals. Records handed over to a Device or DeviceFleet " +
      "of the same deployment are not counted.",
  ),
};

/** The RpsFleet resource. */
export const rpsFleetResourceSpec: ResourceSpec = {
  description: withExamples(
    "A batch of RPS records (a shipment's rps.csv) as one engine resource, reconciled by serial number with the " +
      "platform's RPS operations: Specify the Profile URL for RPS to add or change a record, Delete RPS Record to " +
      "remove one, removals first. Its id is the batch's name (the resource's name): keep it stable. Records " +
      "already on the platform with the declared URL are adopted without a write.",
    RPS_FLEET_EXAMPLES,
  ),
  inputProperties: {
    records: list(
      ref("RpsFleetRecord"),
      "The records of the batch, each by the RpsProfile rules (errors name the record's index, serial number and " +
        "field); serial numbers unique without regard to case; may be empty.",
    ),
    ...SETTINGS,
  },
  requiredInputs: ["records"],
  properties: {
    profileUrls: map(
      string("A profile URL."),
      "Serial number (as declared) → the profile URL the batch applied.",
    ),
    ...SETTINGS,
  },
  required: ["profileUrls"],
};

/** The types the batch refers to. */
export const rpsFleetTypes: TypeContributions = { objects: { RpsFleetRecord: rpsFleetRecord } };
