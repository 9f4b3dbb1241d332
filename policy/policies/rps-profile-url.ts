/**
 * An RpsProfile's `profileUrl` points at one of the team's own RPS servers: it starts with one of
 * the configured prefixes (each an https URL whose host ends with `/`, so that
 * `https://rps.example.com/` does not admit `https://rps.example.com.attacker.net/`). The URL is
 * compared resolved, as the RPS client will read it (`policy/urls.ts`): `…/profiles/../admin` is
 * not under `…/profiles/`, and `HTTPS://RPS.Example.com./profiles/1` is.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { z } from "zod";
import { kindOfResource } from "../resources";
import { isUnderPrefix } from "../urls";
import { plainOf } from "../inputs";
import { configSchema, settingsOf } from "../settings";
import { reportBatchUrls } from "./rps-batch-url";

export const RPS_PROFILE_URL = "devplatform-rps-profile-url";

const PREFIX = /^https:\/\/[^/\s]+\/\S*$/;

const Settings = z.object({
  allowedPrefixes: z
    .array(z.string().regex(PREFIX, "must be an https URL whose host ends with / (https://rps.example.com/)"))
    .default([]),
});

/** The RPS profile URL allow-list. */
export const rpsProfileUrl: ResourceValidationPolicy = {
  name: RPS_PROFILE_URL,
  description:
    "An RpsProfile's profileUrl, and each record's of an RpsFleet, starts with one of the team's allowed prefixes " +
    "(its own RPS servers).",
  enforcementLevel: "mandatory",
  configSchema: configSchema({
    allowedPrefixes: { type: "array", items: { type: "string" }, default: [] },
  }),
  validateResource: (args, reportViolation) => {
    const kind = kindOfResource(args);
    if (kind !== "RpsProfile" && kind !== "RpsFleet") return;
    const { allowedPrefixes } = settingsOf(RPS_PROFILE_URL, Settings, args.getConfig());
    if (allowedPrefixes.length === 0) return;
    // An RpsFleet's every record by the same allow-list (rps-batch-url.ts).
    if (kind === "RpsFleet")
      return reportBatchUrls(
        args.name,
        plainOf(args.props) as Record<string, unknown>,
        allowedPrefixes,
        reportViolation,
      );
    const url: unknown = args.props.profileUrl;
    if (typeof url !== "string") return;
    if (allowedPrefixes.some((prefix) => isUnderPrefix(url, prefix))) return;
    reportViolation(
      `RpsProfile "${args.name}": profileUrl ${url} is not on an allowed RPS server; ` +
        `it must start with ${allowedPrefixes.join(" or ")}`,
    );
  },
};
