/** The RpsProfile's part of the plugin's package schema. */
import { string, type ResourceSpec } from "../core/schema-spec";
import { withExamples } from "../core/schema-examples";
import { RPS_PROFILE_EXAMPLES } from "./examples";

const INPUTS = {
  sn: string(
    "Serial number of a device that is not on the platform: 12–16 hex digits, compared without regard to case. " +
      "Changing it replaces the record.",
  ),
  profileUrl: string("Absolute https URL of the device's profile; a change updates the record in place."),
};

/** The RpsProfile resource. */
export const rpsProfileResourceSpec: ResourceSpec = {
  description: withExamples(
    "The RPS profile URL of a device not yet on the platform (Specify the Profile URL for RPS / Delete RPS Record " +
      "of a Device), identified by its serial number (the resource's id). A record already there is adopted.",
    RPS_PROFILE_EXAMPLES,
  ),
  inputProperties: INPUTS,
  requiredInputs: ["sn", "profileUrl"],
  properties: INPUTS,
  required: ["sn", "profileUrl"],
};
