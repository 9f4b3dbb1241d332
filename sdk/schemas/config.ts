/** Schemas of device configuration: property updates, configuration reads and configuration tasks. */
import { z } from "zod";
import type { JsonInput, JsonValue } from "../lossless-json";
import { idSchema } from "./common";

/** Any JSON value; integers beyond 2^53 arrive as strings of digits (see lossless-json). */
export const jsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(jsonValueSchema),
    z.record(z.string(), jsonValueSchema),
  ]),
);

/** Property id → value; a STRUCT property is an object keyed by child id. */
export const propertyValuesSchema = z.record(z.string(), jsonValueSchema);

/** Property values as the platform reports them. */
export type PropertyValues = z.output<typeof propertyValuesSchema>;

/**
 * Property values to send. A LONG value beyond 2^53 is given as a `bigint` so that it travels as an
 * exact JSON number.
 */
export type PropertyValuesInput = { readonly [propertyId: string]: JsonInput };

/** Response of Update Device Properties Incrementally: the properties actually applied. */
export const propertiesResultSchema = z.object({
  properties: propertyValuesSchema.nullish().transform((v) => v ?? {}),
});

/** Properties that were applied. */
export type PropertiesResult = z.output<typeof propertiesResultSchema>;

/** Response of Getting the Configuration of a Specific Device: current writable property values. */
export const deviceConfigSchema = propertiesResultSchema;

/** A device's current configuration. */
export type DeviceConfig = z.output<typeof deviceConfigSchema>;

/** Task_Create_Result. */
export const taskCreateResultSchema = z.object({
  deviceTaskRelations: z
    .array(z.object({ deviceId: idSchema, taskId: idSchema }))
    .nullish()
    .transform((v) => v ?? []),
});

/** One device's configuration task. */
export interface DeviceTaskRelation {
  readonly deviceId: string;
  readonly taskId: string;
}

/** PROFILE configuration: key/value settings. */
export interface ProfileConfig {
  readonly version?: string;
  readonly values: readonly { readonly key: string; readonly value: JsonInput }[];
}

/** TSL configuration: property id → value. */
export interface TslConfig {
  readonly version?: string;
  readonly type?: string;
  readonly properties: PropertyValuesInput;
}

/** Input of `createConfigTasks`. */
export type CreateConfigTasksInput =
  | { readonly type: "PROFILE"; readonly deviceIds: readonly string[]; readonly config: ProfileConfig }
  | { readonly type: "TSL"; readonly deviceIds: readonly string[]; readonly config: TslConfig };
