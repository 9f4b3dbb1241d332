/**
 * Building blocks shared by the response schemas.
 *
 * Policy, applied everywhere: fields the document marks as possibly absent are optional, and `null`
 * is read as absent; unknown extra fields are dropped (objects are stripped), except inside TSL
 * `dataSpec`, whose keys the document says vary by device model, where they pass through.
 */
import { z } from "zod";

const DIGITS = /^\d+$/;

/**
 * A Long id (`deviceId`, `applicationId`, `taskId`) normalised to a string of digits. The lossless
 * parser already turns JSON numbers under id keys into their exact digits; a number that still
 * reaches here (an id nested elsewhere) is accepted when it is a safe integer.
 */
export const idSchema = z.union([
  z.string().regex(DIGITS, "expected a string of digits"),
  z
    .number()
    .int()
    .nonnegative()
    .refine(Number.isSafeInteger, "integer id beyond 2^53 lost its precision")
    .transform(String),
]);

/** A string of digits identifying a device, application or task. */
export type Id = z.output<typeof idSchema>;

/** Makes a schema optional, reading `null` as absent so that callers see one "no value" shape. */
export function opt<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((v): z.output<T> | undefined => v ?? undefined);
}

/** A number that some responses carry as a numeric string. */
export const numberLike = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/)
    .transform(Number),
]);

/** A string that some responses carry as a number or boolean (e.g. TSL `defaultValue`). */
export const stringLike = z.union([z.string(), z.number().transform(String), z.boolean().transform(String)]);

/** The success envelope every operation answers with. `data` is checked by each operation's schema. */
export const envelopeSchema = z.object({
  status: z.enum(["Success", "Failed"]),
  requestId: opt(stringLike),
  data: z.unknown().optional(),
  errCode: opt(stringLike),
  errMsg: opt(stringLike),
});

/** The parsed envelope. */
export type Envelope = z.output<typeof envelopeSchema>;

/** A page of search results, as Search Specific Devices and Query Profile URL List return it. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    pageSize: numberLike,
    pageNumber: numberLike,
    total: numberLike,
    content: opt(z.array(item)).transform((v): z.output<T>[] => v ?? []),
  });
}

/** A page of results. */
export interface Page<T> {
  readonly pageSize: number;
  readonly pageNumber: number;
  readonly total: number;
  readonly content: T[];
}

/** Sort order for search operations. */
export const sortSchema = z.object({
  direction: z.enum(["asc", "desc"]),
  property: z.string().min(1),
});

/** Sort order for search operations. */
export type Sort = z.output<typeof sortSchema>;
