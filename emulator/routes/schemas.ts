import { z } from "zod";
import { DIGITS } from "../http/ids";

/**
 * Request schemas shared by several operations. Ids arrive as strings of digits or JSON numbers (big
 * ones already `bigint`, see lossless-json) and leave as strings of digits.
 */

/** A deviceId as sent in a body: string of digits, number or bigint → string of digits. */
export const idSchema = z
  .union([z.string(), z.number(), z.bigint()], { error: "expected a string of digits or a number" })
  .transform((value) => (typeof value === "string" ? value.trim() : value.toString()))
  .refine((value) => DIGITS.test(value), { error: "expected a non-negative 64-bit integer id" });

/** Serial numbers: 12–16 hex digits (which includes plain digits). */
export const SERIAL_NUMBER = /^[0-9A-Fa-f]{12,16}$/;

/** A serial number in a body or path. */
export const serialSchema = z
  .string({ error: "expected a string" })
  .regex(SERIAL_NUMBER, { error: "a serial number is 12 to 16 hex digits or digits" });

/** Tags: at most 20, each a non-empty string, no repeats. */
export const tagsSchema = z
  .array(
    z
      .string({ error: "a tag is a string" })
      .refine((t) => t.trim() !== "", { error: "a tag must not be empty" }),
  )
  .max(20, { error: "at most 20 tags per device" })
  .refine((tags) => new Set(tags).size === tags.length, { error: "tags must not repeat" });

/** A non-empty name. */
export const nameSchema = z
  .string({ error: "expected a string" })
  .trim()
  .min(1, { error: "must not be empty" });

/** Largest page the search operations serve. */
export const MAX_PAGE_SIZE = 100;

/** `pageSize` and `pageNumber` (from 1). */
export const pagingShape = {
  pageSize: z
    .number({ error: "expected an integer" })
    .int({ error: "expected an integer" })
    .min(1, { error: "must be at least 1" })
    .max(MAX_PAGE_SIZE, { error: `must be at most ${MAX_PAGE_SIZE}` }),
  pageNumber: z
    .number({ error: "expected an integer" })
    .int({ error: "expected an integer" })
    .min(1, { error: "pages count from 1" }),
};

/** `sorts`: each element names a property and a direction (`asc`/`desc`, any case). */
export function sortsSchema(properties: readonly string[]) {
  return z
    .array(
      z.object({
        property: z.string().refine((p) => properties.includes(p), {
          error: `unknown sort property; one of ${properties.join(", ")}`,
        }),
        direction: z
          .string()
          .transform((d) => d.toLowerCase())
          .pipe(z.enum(["asc", "desc"], { error: "direction is asc or desc" }))
          .optional(),
      }),
    )
    .optional();
}

/** A sort request after parsing. */
export interface SortSpec {
  property: string;
  direction?: "asc" | "desc";
}

/** An RPS profile URL: absolute, http or https (also used by the control API's seed). */
export const profileUrlSchema = z.string().refine(
  (text) => {
    try {
      const url = new URL(text);
      return url.protocol === "https:" || url.protocol === "http:";
    } catch {
      return false;
    }
  },
  { error: "profileUrl must be an absolute http(s) URL" },
);
