/**
 * Every declared device (a Device, each entry of a DeviceFleet) is in a project, one of the team's
 * where a list is configured, and carries the team's required tags. With `remediate`, a device
 * without a project gets the configured `defaultProject`, and missing required tags are added (as
 * long as the device stays within the platform's 20 tags); whatever cannot be remediated stays a
 * violation. A fleet's violations are told once per fleet, naming at most 20 serial numbers.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { z } from "zod";
import { fleetEntries, kindOfType, type Entry, type Props } from "../resources";
import { configSchema, settingsOf } from "../settings";

export const PROJECT_AND_TAGS = "devplatform-project-and-tags";

/** The platform's limit on a device's tags. */
const MAX_TAGS = 20;
/** How many serial numbers a fleet's message names. */
const LISTED = 20;

const Settings = z.object({
  requireProject: z.boolean().default(true),
  defaultProject: z.string().min(1).optional(),
  allowedProjects: z.array(z.string().min(1)).default([]),
  requiredTags: z.array(z.string().min(1)).default([]),
});
type Settings = z.output<typeof Settings>;

function projectOf(entry: Entry): string | undefined {
  return typeof entry.project === "string" && entry.project !== "" ? entry.project : undefined;
}

function tagsOf(entry: Entry): string[] {
  return Array.isArray(entry.tags) ? entry.tags.filter((tag): tag is string => typeof tag === "string") : [];
}

/** What is wrong with one declared device, in words. */
function problemsOf(entry: Entry, settings: Settings): string[] {
  const problems: string[] = [];
  const project = projectOf(entry);
  if (project === undefined && settings.requireProject) problems.push("no project");
  if (
    project !== undefined &&
    settings.allowedProjects.length > 0 &&
    !settings.allowedProjects.includes(project)
  ) {
    problems.push(`project "${project}" is not one of ${settings.allowedProjects.join(", ")}`);
  }
  const tags = tagsOf(entry);
  const missing = settings.requiredTags.filter((tag) => !tags.includes(tag));
  if (missing.length > 0)
    problems.push(`missing the required tag${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`);
  return problems;
}

/** The entry remediated: its default project, its missing required tags; undefined when unchanged. */
function remediated(entry: Entry, settings: Settings): Entry | undefined {
  let changed: Entry | undefined;
  if (projectOf(entry) === undefined && settings.defaultProject !== undefined) {
    changed = { ...entry, project: settings.defaultProject };
  }
  const tags = tagsOf(entry);
  const missing = settings.requiredTags.filter((tag) => !tags.includes(tag));
  if (missing.length > 0 && tags.length + missing.length <= MAX_TAGS) {
    changed = { ...(changed ?? entry), tags: [...tags, ...missing] };
  }
  return changed;
}

/** Projects and required tags on every declared device. */
export const projectAndTags: ResourceValidationPolicy = {
  name: PROJECT_AND_TAGS,
  description:
    "Every Device and fleet entry is in a project (one of the allowed ones) and carries the required tags; " +
    "remediation sets the default project and adds missing required tags.",
  enforcementLevel: "advisory",
  configSchema: configSchema({
    requireProject: { type: "boolean", default: true },
    defaultProject: { type: "string" },
    allowedProjects: { type: "array", items: { type: "string" }, default: [] },
    requiredTags: { type: "array", items: { type: "string" }, default: [] },
  }),
  validateResource: (args, reportViolation) => {
    const kind = kindOfType(args.type);
    const settings = settingsOf(PROJECT_AND_TAGS, Settings, args.getConfig());
    if (kind === "Device") {
      const problems = problemsOf(args.props, settings);
      if (problems.length > 0) reportViolation(`Device "${args.name}": ${problems.join("; ")}`);
    } else if (kind === "DeviceFleet") {
      const byProblem = new Map<string, string[]>();
      for (const [sn, entry] of Object.entries(fleetEntries(args.props)?.entries ?? {})) {
        for (const problem of problemsOf(entry, settings))
          byProblem.set(problem, [...(byProblem.get(problem) ?? []), sn]);
      }
      for (const [problem, serials] of byProblem) {
        const listed = serials.slice(0, LISTED).join(", ") + (serials.length > LISTED ? ", …" : "");
        const count = serials.length === 1 ? "1 device" : `${serials.length} devices`;
        reportViolation(`DeviceFleet "${args.name}": ${count} with ${problem} (${listed})`);
      }
    }
  },
  remediateResource: (args) => {
    const kind = kindOfType(args.type);
    const settings = settingsOf(PROJECT_AND_TAGS, Settings, args.getConfig());
    if (kind === "Device") {
      const entry = remediated(args.props, settings);
      return entry === undefined ? undefined : { ...args.props, ...entry };
    }
    if (kind !== "DeviceFleet") return undefined;
    const found = fleetEntries(args.props);
    if (found === undefined) return undefined;
    let changed = false;
    const entries = Object.fromEntries(
      Object.entries(found.entries).map(([sn, entry]) => {
        const fixed = remediated(entry, settings);
        changed ||= fixed !== undefined;
        return [sn, fixed ?? entry];
      }),
    );
    return changed ? ({ ...args.props, [found.key]: entries } satisfies Props) : undefined;
  },
};
