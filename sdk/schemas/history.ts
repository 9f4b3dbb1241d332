/**
 * Schemas of Query the Historical Data of Properties Reports. The platform's API reference gives the
 * page as `data: { list: [{ ts, properties }], pageSize, nextPageKey }`: `ts` the time of the report,
 * `properties` what the device reported, `nextPageKey` the key of the next page (absent on the last).
 */
import { z } from "zod";
import type { JsonValue } from "../lossless-json";
import { numberLike, opt, stringLike } from "./common";

/** Milliseconds since the epoch: a whole number a double holds exactly. */
const epochMillis = z.number().int().nonnegative().refine(Number.isSafeInteger, "beyond 2^53");

/** A report time as the platform sends it (a number, or its digits), read as epoch milliseconds. */
const reportTimeSchema = numberLike.pipe(epochMillis);

/**
 * One property report: when (`ts`, milliseconds since the epoch) and what the device reported
 * (`properties`, TSL property id → value; integers beyond 2^53 arrive as strings of their exact
 * digits, as everywhere in the SDK).
 */
export const propertyReportSchema = z.object({
  ts: reportTimeSchema,
  properties: opt(z.record(z.string(), z.custom<JsonValue>())).transform((v) => v ?? {}),
});

/** One property report of a device. */
export type PropertyReport = z.output<typeof propertyReportSchema>;

/** One page of a device's property history. */
export const propertyHistoryPageSchema = z.object({
  list: opt(z.array(propertyReportSchema)).transform((v) => v ?? []),
  pageSize: opt(numberLike),
  /** Absent, null or empty on the last page. */
  nextPageKey: opt(stringLike).transform((v) => (v === "" ? undefined : v)),
});

/** One page of a device's property history. */
export type PropertyHistoryPage = z.output<typeof propertyHistoryPageSchema>;

/**
 * Options of `propertyHistory`. Without `startTime` and `endTime` the platform returns the last
 * three days. Times are milliseconds since the epoch (the v1 reference's unit).
 */
export const propertyHistoryOptionsSchema = z
  .object({
    startTime: epochMillis.optional(),
    endTime: epochMillis.optional(),
    pageSize: z.number().int().min(1).max(100).default(100),
  })
  .refine((o) => o.startTime === undefined || o.endTime === undefined || o.startTime <= o.endTime, {
    path: ["endTime"],
    message: "must not be before startTime",
  });

/** Options of `propertyHistory`. */
export type PropertyHistoryOptions = z.input<typeof propertyHistoryOptionsSchema>;

/**
 * The answer of Invoke Device Services Asynchronously: the reference gives only `status` and
 * `requestId`, no `data`; the `requestId` names the call.
 */
export interface ServiceCallResult {
  /** The platform's `requestId` of the call, when it sent one. */
  readonly requestId: string | undefined;
}
