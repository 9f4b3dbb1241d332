/**
 * A DeviceConfig's numeric values stay within the team's ranges, which are tighter than what the
 * device's TSL model allows (the provider checks the model's `min`/`max`; a team may want, say,
 * `reportInterval` between 300 and 3,600 seconds on every device it manages). Ranges are keyed by
 * property id, a STRUCT child as `parent.child`, and apply to `properties` and `profile` alike.
 * A STRUCT child is found however the program names it inside its STRUCT, by its short id
 * (`alarmThreshold: { high: 100 }`) or its full one (`alarmThreshold: { "alarmThreshold.high": 100 }`),
 * as the provider sends both to the platform as `alarmThreshold.high`.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { z } from "zod";
import { plainOf } from "../inputs";
import { isRecord, kindOfResource, type Props } from "../resources";
import { configSchema, settingsOf } from "../settings";

export const PROPERTY_RANGES = "devplatform-property-ranges";

const Range = z
  .object({ min: z.number().optional(), max: z.number().optional() })
  .refine(
    ({ min, max }) => min === undefined || max === undefined || min <= max,
    "min must not be above max",
  );

const Settings = z.object({ ranges: z.record(z.string().min(1), Range).default({}) });

/** The values a DeviceConfig declares (`properties` or `profile`; a JSON string is read too). */
function valuesOf(props: Props): Record<string, unknown> {
  for (const key of ["properties", "profile"]) {
    let value = key in props ? plainOf(props[key]) : undefined;
    if (typeof value === "string") {
      try {
        value = JSON.parse(value) as unknown;
      } catch {
        continue;
      }
    }
    if (isRecord(value)) return value;
  }
  return {};
}

/**
 * Every value by its full property id: a top-level property by its id, a STRUCT child (at any
 * depth) by `parent.child`, whether the program keys it by its short or its full id. Where a
 * STRUCT names one child both ways, both values are kept: each is checked.
 */
function valuesById(values: Record<string, unknown>, parent?: string): [string, unknown][] {
  const found: [string, unknown][] = [];
  for (const [key, value] of Object.entries(values)) {
    const id = parent === undefined || key.startsWith(`${parent}.`) ? key : `${parent}.${key}`;
    found.push([id, value]);
    if (isRecord(value)) found.push(...valuesById(value, id));
  }
  return found;
}

function numberOf(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

function describe(range: { min?: number; max?: number }): string {
  if (range.min !== undefined && range.max !== undefined) return `between ${range.min} and ${range.max}`;
  return range.min !== undefined ? `at least ${range.min}` : `at most ${String(range.max)}`;
}

/** Team ranges on configuration values. */
export const propertyRanges: ResourceValidationPolicy = {
  name: PROPERTY_RANGES,
  description: "A DeviceConfig's numeric values lie within the team's ranges (tighter than the TSL model's).",
  enforcementLevel: "mandatory",
  configSchema: configSchema({
    ranges: {
      type: "object",
      additionalProperties: {
        type: "object",
        properties: { min: { type: "number" }, max: { type: "number" } },
      },
      default: {},
    },
  }),
  validateResource: (args, reportViolation) => {
    if (kindOfResource(args) !== "DeviceConfig") return;
    const { ranges } = settingsOf(PROPERTY_RANGES, Settings, args.getConfig());
    const values = valuesById(valuesOf(args.props));
    for (const [path, range] of Object.entries(ranges)) {
      for (const [id, found] of values) {
        const value = id === path ? numberOf(found) : undefined;
        if (value === undefined) continue;
        if (
          (range.min !== undefined && value < range.min) ||
          (range.max !== undefined && value > range.max)
        ) {
          reportViolation(
            `DeviceConfig "${args.name}": ${path} is ${value}; the team's range is ${describe(range)}`,
          );
        }
      }
    }
  },
};
