/** The pack's policies, in the order the engine reports them. */
import type { Policies } from "@pulumi/policy";
import { fleetMaxRemovals } from "./fleet-max-removals";
import { oneSerialOneResource } from "./one-serial-one-resource";
import { projectAndTags } from "./project-and-tags";
import { propertyRanges } from "./property-ranges";
import { rpsProfileUrl } from "./rps-profile-url";

export { FLEET_MAX_REMOVALS } from "./fleet-max-removals";
export { ONE_SERIAL_ONE_RESOURCE } from "./one-serial-one-resource";
export { PROJECT_AND_TAGS } from "./project-and-tags";
export { PROPERTY_RANGES } from "./property-ranges";
export { RPS_PROFILE_URL } from "./rps-profile-url";

/** Every policy of the pack. */
export const POLICIES: Policies = [
  rpsProfileUrl,
  projectAndTags,
  fleetMaxRemovals,
  propertyRanges,
  oneSerialOneResource,
];
