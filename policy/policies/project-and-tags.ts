/**
 * Every declared device (a Device, each entry of a DeviceFleet) is in a project, one of the team's
 * where a list is configured, and carries the team's required tags. With `remediate`, a device
 * without a project gets the configured `defaultProject`, and missing required tags are added (as
 * long as the device stays within the platform's 20 tags); whatever cannot be remediated stays a
 * violation. A fleet's violations are told once per fleet, naming at most 20 serial numbers.
 *
 * Projects and tags are compared as the platform stores them (`policy/text.ts`): in canonical
 * form, with invisible, control and look-alike characters refused (a zero-width space is no
 * project). Policies read plain copies of the inputs (`policy/inputs.ts`); a remediation changes
 * what it must and hands back every other input as it came, known or not.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { z } from "zod";
import { isUnknown, plainOf, rawProps } from "../inputs";
import { fleetEntries, isRecord, kindOfResource, type Entry, type Props } from "../resources";
import { canonical, isBlank, textProblem } from "../text";
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
  return typeof entry.project === "string" && !isBlank(entry.project) ? entry.project : undefined;
}

/** The entry's tags in canonical form (a plain copy: see policy/inputs.ts). */
function tagsOf(entry: Entry): string[] {
  const tags = plainOf(entry.tags);
  return Array.isArray(tags)
    ? tags.filter((tag): tag is string => typeof tag === "string").map(canonical)
    : [];
}

/** What is wrong with one declared device, in words. */
function problemsOf(entry: Entry, settings: Settings): string[] {
  const problems: string[] = [];
  const project = projectOf(entry);
  const projectProblem = project === undefined ? undefined : textProblem(project);
  if (project === undefined && settings.requireProject) problems.push("no project");
  if (project !== undefined && projectProblem !== undefined)
    problems.push(`project ${JSON.stringify(project)} ${projectProblem}`);
  else if (
    project !== undefined &&
    settings.allowedProjects.length > 0 &&
    !settings.allowedProjects.map(canonical).includes(canonical(project))
  ) {
    problems.push(`project "${project}" is not one of ${settings.allowedProjects.join(", ")}`);
  }
  const tags = tagsOf(entry);
  const missing = settings.requiredTags.filter((tag) => !tags.includes(canonical(tag)));
  if (missing.length > 0)
    problems.push(`missing the required tag${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`);
  return problems;
}

/**
 * What remediation changes in one declared device (`plain`: read as data; `raw`: as the engine gave
 * it, unknown values and secrets kept): its default project, its missing required tags; undefined
 * when nothing changes or what it would read is unknown until the `up`.
 */
function remediated(plain: Entry, raw: Record<string, unknown>, settings: Settings): Entry | undefined {
  let changed: Record<string, unknown> | undefined;
  if (!isUnknown(raw.project) && projectOf(plain) === undefined && settings.defaultProject !== undefined) {
    changed = { ...raw, project: settings.defaultProject };
  }
  const rawTags = raw.tags;
  if (isUnknown(rawTags) || (rawTags !== undefined && rawTags !== null && !Array.isArray(rawTags)))
    return changed;
  const tags = tagsOf(plain);
  const missing = settings.requiredTags.filter((tag) => !tags.includes(canonical(tag)));
  if (missing.length > 0 && tags.length + missing.length <= MAX_TAGS) {
    changed = { ...(changed ?? raw), tags: [...(rawTags ?? []), ...missing] };
  }
  return changed;
}

/** `entry` read as plain data, or undefined when part of it is unknown until the `up`. */
function knownEntry(entry: unknown): Entry | undefined {
  try {
    const plain = plainOf(entry);
    return isRecord(plain) ? plain : undefined;
  } catch {
    return undefined;
  }
}

/** The remediated entries of a fleet's raw entries (an object or the program's list). */
function remediatedEntries(rawEntries: unknown, settings: Settings): unknown {
  const fixOne = (raw: unknown): unknown => {
    if (!isRecord(raw)) return raw;
    const plain = knownEntry(raw);
    return plain === undefined ? raw : (remediated(plain, raw, settings) ?? raw);
  };
  if (Array.isArray(rawEntries)) return rawEntries.map(fixOne);
  if (!isRecord(rawEntries)) return rawEntries;
  return Object.fromEntries(Object.entries(rawEntries).map(([sn, raw]) => [sn, fixOne(raw)]));
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
    const kind = kindOfResource(args);
    const settings = settingsOf(PROJECT_AND_TAGS, Settings, args.getConfig());
    if (kind === "Device") {
      const problems = problemsOf(args.props, settings);
      if (problems.length > 0) reportViolation(`Device "${args.name}": ${problems.join("; ")}`);
    } else if (kind === "DeviceFleet") {
      const byProblem = new Map<string, string[]>();
      for (const [sn, entry] of Object.entries(fleetEntries(args.props)?.entries ?? {})) {
        for (const problem of problemsOf(plainOf(entry) as Entry, settings))
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
    const kind = kindOfResource(args);
    const settings = settingsOf(PROJECT_AND_TAGS, Settings, args.getConfig());
    const raw = rawProps(args.props);
    if (kind === "Device") {
      const plain = knownEntry({ project: raw.project, tags: raw.tags });
      return plain === undefined ? undefined : remediated(plain, raw, settings);
    }
    if (kind !== "DeviceFleet") return undefined;
    for (const key of ["entries", "devices"] as const) {
      const value = raw[key];
      if (value === undefined || isUnknown(value)) continue;
      const parsed = typeof value === "string" ? parseJson(value) : value;
      const fixed = remediatedEntries(parsed, settings);
      if (JSON.stringify(fixed) === JSON.stringify(parsed)) return undefined;
      return { ...raw, [key]: typeof value === "string" ? JSON.stringify(fixed) : fixed } satisfies Props;
    }
    return undefined;
  },
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
