/**
 * Every DeviceFleet caps what one `up` may remove (`maxRemovals`), so that a truncated inventory
 * file cannot empty a fleet; the cap is at most the team's `maximum` where one is configured. With
 * `remediate`, a fleet without a cap gets the configured `default` (a fleet above the maximum stays
 * a violation: a deliberate value is not changed behind its author's back). The remediation reads
 * the cap alone and hands back every other input as it came, so a fleet whose devices are computed
 * (unknown until the `up`) gets its default at preview too.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { z } from "zod";
import { rawProps } from "../inputs";
import { kindOfResource, type Props } from "../resources";
import { configSchema, settingsOf } from "../settings";

export const FLEET_MAX_REMOVALS = "devplatform-fleet-max-removals";

const Settings = z.object({
  default: z.number().int().min(0).optional(),
  maximum: z.number().int().min(0).optional(),
});

function capOf(props: Props): unknown {
  return props.maxRemovals;
}

/** Every fleet has a removal cap. */
export const fleetMaxRemovals: ResourceValidationPolicy = {
  name: FLEET_MAX_REMOVALS,
  description:
    "Every DeviceFleet sets maxRemovals (at most the team's maximum); remediation sets the default.",
  enforcementLevel: "mandatory",
  configSchema: configSchema({
    default: { type: "integer", minimum: 0 },
    maximum: { type: "integer", minimum: 0 },
  }),
  validateResource: (args, reportViolation) => {
    if (kindOfResource(args) !== "DeviceFleet") return;
    const settings = settingsOf(FLEET_MAX_REMOVALS, Settings, args.getConfig());
    const cap = capOf(args.props);
    if (cap === undefined || cap === null) {
      const hint = settings.default === undefined ? "" : ` (the team's default is ${settings.default})`;
      reportViolation(
        `DeviceFleet "${args.name}" has no maxRemovals: set how many devices one up may remove${hint}`,
      );
    } else if (settings.maximum !== undefined && typeof cap === "number" && cap > settings.maximum) {
      reportViolation(
        `DeviceFleet "${args.name}": maxRemovals ${cap} is above the team's maximum of ${settings.maximum}`,
      );
    }
  },
  remediateResource: (args) => {
    if (kindOfResource(args) !== "DeviceFleet") return undefined;
    const settings = settingsOf(FLEET_MAX_REMOVALS, Settings, args.getConfig());
    const raw = rawProps(args.props);
    const cap = capOf(raw);
    if ((cap !== undefined && cap !== null) || settings.default === undefined) return undefined;
    return { ...raw, maxRemovals: settings.default };
  },
};
