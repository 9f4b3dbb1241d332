/**
 * Values as the platform takes them, from values as a user writes them: a LONG (or DATE) beyond
 * 2^53, which a JavaScript number (and Pulumi state) cannot carry, is written as a string of digits
 * and becomes a `bigint`, which the SDK serialises as an exact JSON number; an ENUM key given as a
 * string of digits goes as the number it names; STRUCT children go by their full ids
 * (`<parent>.<child>`), the ids the model gives them. Shared by configuration values and service
 * inputs. Call it on validated values only.
 */
import type { JsonInput } from "../lossless-json";
import type { DataType } from "../schemas/tsl";
import { isPlainObject } from "./check-value";
import { childForKey, specOf, type FieldIndex, type TslField } from "./field-index";

const INTEGER_TEXT = /^-?\d+$/;

/** Validated values (field id → value) in the shape and types the platform takes. */
export function toWireValues(
  values: Readonly<Record<string, unknown>>,
  index: FieldIndex<TslField>,
): Record<string, JsonInput> {
  const wire: Record<string, JsonInput> = {};
  for (const [id, value] of Object.entries(values)) {
    const field = index.topLevel.get(id);
    wire[id] = field ? wireValue(field, value, index) : (value as JsonInput);
  }
  return wire;
}

function wireValue(field: TslField, value: unknown, index: FieldIndex<TslField>): JsonInput {
  const spec = specOf(field);
  if (spec.dataType === "STRUCT" && isPlainObject(value)) return wireStruct(field.id, value, index);
  if (spec.dataType === "ARRAY" && Array.isArray(value)) {
    return value.map((element) =>
      spec.elementDataType === "STRUCT" && isPlainObject(element)
        ? wireStruct(field.id, element, index)
        : wireScalar(spec.elementDataType, element),
    );
  }
  return wireScalar(spec.dataType, value);
}

function wireStruct(
  parentId: string,
  value: Record<string, unknown>,
  index: FieldIndex<TslField>,
): JsonInput {
  const wire: Record<string, JsonInput> = {};
  for (const [key, childValue] of Object.entries(value)) {
    const child = childForKey(index, parentId, key);
    if (child) wire[child.id] = wireValue(child, childValue, index);
    else wire[key] = childValue as JsonInput;
  }
  return wire;
}

function wireScalar(type: DataType | undefined, value: unknown): JsonInput {
  if (typeof value !== "string" || !INTEGER_TEXT.test(value)) return value as JsonInput;
  if (type === "LONG" || type === "DATE") {
    const number = Number(value);
    return Number.isSafeInteger(number) ? number : BigInt(value);
  }
  if (type === "ENUM") return Number(value);
  return value;
}
