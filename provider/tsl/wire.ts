/**
 * Configuration values as the platform takes them, from values as a user writes them in a
 * program (by the SDK's `sdk/tsl/wire-values.ts`, shared with service inputs), and the TSL
 * `defaultValue` (always a string) as a value of the property's type.
 *
 * Pulumi carries numbers as float64, so a LONG (or DATE) beyond 2^53 is written as a string of
 * digits; on the wire it becomes a `bigint`, which the SDK serialises as an exact JSON number. An
 * ENUM key given as a string of digits goes as the number it names. STRUCT children go by their
 * full ids (`<parent>.<child>`), the ids the model gives them.
 */
import { parseLosslessJson, type PropertyValuesInput, type TslProperty } from "../../sdk";
import { toWireValues } from "../../sdk/tsl/wire-values";
import { specOf, type IndexedModel } from "./model-index";

const INTEGER_TEXT = /^-?\d+$/;

/** Validated `properties` (property id → value) in the shape and types the platform takes. */
export function toWire(
  properties: Readonly<Record<string, unknown>>,
  model: IndexedModel,
): PropertyValuesInput {
  return toWireValues(properties, model);
}

/**
 * The TSL `defaultValue` of a writable property as a value of its type (before {@link toWire}),
 * or undefined when the model gives none or it cannot be read as that type. A STRUCT without a
 * default of its own is assembled from its children's defaults.
 */
export function defaultValueOf(property: TslProperty, model: IndexedModel): unknown {
  const spec = specOf(property);
  const text = spec.defaultValue;
  if (text === undefined) return spec.dataType === "STRUCT" ? structDefault(property, model) : undefined;
  switch (spec.dataType) {
    case "BOOL":
      return text === "true" || text === "1" ? true : text === "false" || text === "0" ? false : undefined;
    case "INT":
    case "FLOAT":
    case "DOUBLE":
      return finiteNumber(text);
    case "LONG":
    case "DATE":
      return INTEGER_TEXT.test(text) ? text : undefined;
    case "ENUM":
      return INTEGER_TEXT.test(text) ? Number(text) : text;
    case "ARRAY":
    case "STRUCT":
      return parseJsonDefault(text);
    default:
      return text;
  }
}

function structDefault(property: TslProperty, model: IndexedModel): Record<string, unknown> | undefined {
  const value: Record<string, unknown> = {};
  for (const child of model.children.get(property.id) ?? []) {
    const childDefault = defaultValueOf(child, model);
    if (childDefault !== undefined) value[child.id] = childDefault;
  }
  return Object.keys(value).length > 0 ? value : undefined;
}

function finiteNumber(text: string): number | undefined {
  const value = text.trim() === "" ? NaN : Number(text);
  return Number.isFinite(value) ? value : undefined;
}

function parseJsonDefault(text: string): unknown {
  try {
    return parseLosslessJson(text);
  } catch {
    return undefined;
  }
}
