/**
 * The policy pack `devplatform-guardrails`: constructing it serves the pack to the engine that
 * started this process (`policy-pack/run-pack`, or a language host's RunPlugin). Load it only as
 * the pack's program; the policies themselves are in `./policies`.
 */
import { PolicyPack } from "@pulumi/policy";
import { POLICIES } from "./policies";

new PolicyPack("devplatform-guardrails", {
  description:
    "Guardrails for pulumi-devplatform fleets: RPS servers, projects and tags, removal caps, ranges, one owner per serial number.",
  policies: POLICIES,
});
