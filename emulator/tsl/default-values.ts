import type { DataSpec, TslModel, TslProperty } from "../catalogue/types";
import { parseJson } from "../http/lossless-json";
import type { PropertyMap, PropertyValue } from "../state/types";

/**
 * `defaultValue` is carried as a string whatever the data type; this turns it into a value of the
 * property's type, the way Get Configuration reports it. Returns `undefined` when there is no default.
 */
export function convertDefault(spec: DataSpec): PropertyValue | undefined {
  const text = spec.defaultValue;
  if (text === undefined) return undefined;
  switch (spec.dataType) {
    case "BOOL":
      return text === "true" || text === "1";
    case "INT":
    case "FLOAT":
    case "DOUBLE":
    case "DATE":
      return Number(text);
    case "LONG":
      return Number.isSafeInteger(Number(text)) ? Number(text) : BigInt(text);
    case "ENUM":
      return /^-?\d+$/.test(text) ? Number(text) : text;
    case "STRING":
      return text;
    case "ARRAY":
    case "STRUCT":
      return parseJson(text) as PropertyValue;
  }
}

/** Whether a property can be written by Update Device Properties Incrementally and tasks. */
export function isWritable(property: TslProperty): boolean {
  return property.accessMode === "W" || property.accessMode === "RW";
}

/** The children of a STRUCT property, in model order. */
export function childrenOf(model: TslModel, parentId: string): TslProperty[] {
  return model.properties.filter((p) => p.dataSpec.parentId === parentId);
}

/** A STRUCT value built from its children's defaults, keyed by the children's full ids. */
export function structDefault(model: TslModel, parent: TslProperty): PropertyMap {
  const value: PropertyMap = {};
  for (const child of childrenOf(model, parent.id)) {
    const converted = convertDefault(child.dataSpec);
    if (converted !== undefined) value[child.id] = converted;
  }
  return value;
}

/**
 * The configuration a device starts with: every writable top-level property at its default
 * (STRUCTs assembled from their children's defaults).
 */
export function initialConfiguration(model: TslModel): PropertyMap {
  const config: PropertyMap = {};
  for (const property of model.properties) {
    if (property.dataSpec.parentId !== undefined || !isWritable(property)) continue;
    const value =
      property.dataSpec.dataType === "STRUCT"
        ? structDefault(model, property)
        : convertDefault(property.dataSpec);
    if (value !== undefined) config[property.id] = value;
  }
  return config;
}
