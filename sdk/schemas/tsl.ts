/** Schema of a device's TSL (Thing Specification Language) model. */
import { z } from "zod";
import { numberLike, opt, stringLike } from "./common";
import { openEnum } from "./open-enum";

/** The documented TSL data types. */
export const DATA_TYPES = [
  "BOOL",
  "STRING",
  "STRUCT",
  "DATE",
  "ARRAY",
  "INT",
  "LONG",
  "FLOAT",
  "DOUBLE",
  "ENUM",
] as const;

/** A TSL data type; one the SDK does not know is kept as sent (and validates nothing). */
export const dataTypeSchema = openEnum(DATA_TYPES);

/** A TSL data type, or a value the platform sent that is none of the documented ones. */
export type DataType = z.output<typeof dataTypeSchema>;

/** Validation rules of a value; loose because extra rule keys would still be meaningful to show. */
export const validatorSchema = z.looseObject({
  min: opt(numberLike),
  max: opt(numberLike),
  minSize: opt(numberLike),
  maxSize: opt(numberLike),
  required: opt(z.boolean()),
});

/** Validation rules of a value. */
export type Validator = z.output<typeof validatorSchema>;

export const assistSchema = z.looseObject({
  providerType: opt(z.string()),
  dependsOnValue: opt(z.looseObject({ id: opt(z.string()), values: opt(z.array(z.unknown())) })),
  lengthBy: opt(z.string()),
  indexBy: opt(z.string()),
  indexBase: opt(numberLike),
  separateElements: opt(z.boolean()),
});

/**
 * dataSpec: the document says its set of keys varies with the device model, so unknown keys pass
 * through (`looseObject`) while the documented ones are typed.
 */
export const dataSpecSchema = z.looseObject({
  dataType: opt(dataTypeSchema),
  elementDataType: opt(dataTypeSchema),
  parentId: opt(z.string()),
  defaultValue: opt(stringLike),
  unitName: opt(z.string()),
  fractionDigits: opt(numberLike),
  coefficient: opt(numberLike),
  validator: opt(validatorSchema),
  encoding: opt(openEnum(["HEX", "ASCII", "UTF8", "BASE64"])),
  mapping: opt(z.record(z.string(), stringLike)),
  assist: opt(assistSchema),
});

/** Data definition of a property or parameter. */
export type DataSpec = z.output<typeof dataSpecSchema>;

/**
 * `hidden` (Boolean) on TSL items, as the platform's API reference lists it (it says no more than
 * that the item is hidden). It changes no rule: a hidden property is validated like any other.
 */
const hiddenSchema = opt(z.boolean());

export const tslPropertySchema = z.object({
  id: z.string(),
  propertyKey: opt(z.string()),
  name: opt(z.string()),
  description: opt(z.string()),
  accessMode: opt(openEnum(["R", "W", "RW"])),
  dataSpec: opt(dataSpecSchema),
  hidden: hiddenSchema,
});

/** A TSL property. */
export type TslProperty = z.output<typeof tslPropertySchema>;

export const tslParameterSchema = z.object({
  id: z.string(),
  propertyKey: opt(z.string()),
  name: opt(z.string()),
  description: opt(z.string()),
  dataSpec: opt(dataSpecSchema),
  ref: opt(z.string()),
  hidden: hiddenSchema,
});

/** An input or output parameter of an event or service. */
export type TslParameter = z.output<typeof tslParameterSchema>;

const parameters = opt(z.array(tslParameterSchema)).transform((v) => v ?? []);

export const tslEventSchema = z.object({
  id: z.string(),
  name: opt(z.string()),
  description: opt(z.string()),
  type: opt(openEnum(["INFO", "WARN", "ERROR"])),
  outputs: parameters,
  hidden: hiddenSchema,
});

/** A TSL event. */
export type TslEvent = z.output<typeof tslEventSchema>;

export const tslServiceSchema = z.object({
  id: z.string(),
  name: opt(z.string()),
  description: opt(z.string()),
  callType: opt(openEnum(["SYNC", "ASYNC"])),
  inputs: parameters,
  outputs: parameters,
  hidden: hiddenSchema,
});

/** A TSL service. */
export type TslService = z.output<typeof tslServiceSchema>;

/** The TSL model; absent lists read as empty. */
export const thingModelSchema = z.object({
  version: opt(z.string()),
  properties: opt(z.array(tslPropertySchema)).transform((v) => v ?? []),
  events: opt(z.array(tslEventSchema)).transform((v) => v ?? []),
  services: opt(z.array(tslServiceSchema)).transform((v) => v ?? []),
});

/** A device's TSL model. */
export type ThingModel = z.output<typeof thingModelSchema>;
