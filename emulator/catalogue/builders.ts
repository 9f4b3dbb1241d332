import { stringifyJson } from "../http/lossless-json";
import { convertDefault } from "../tsl/default-values";
import type { AccessMode, DataSpec, TslParameter, TslProperty } from "./types";

/** Optional text of a property or parameter. */
export interface Labels {
  /** Display name; defaults to the id. May be a localisation placeholder like `${tsl.temperature}`. */
  name?: string;
  description?: string;
}

/** A top-level (non-STRUCT) property. */
export function property(
  id: string,
  accessMode: AccessMode,
  dataSpec: DataSpec,
  labels: Labels = {},
): TslProperty {
  return { id, propertyKey: id, name: labels.name ?? id, ...describe(labels), accessMode, dataSpec };
}

/** A child of a STRUCT, given with its own (short) id. */
export interface StructChild extends Labels {
  id: string;
  dataSpec: DataSpec;
}

/**
 * A STRUCT property and its children, flattened the way the platform lists them: the parent, then each
 * child with id `<parent>.<child>` and `dataSpec.parentId`. A writable parent's `defaultValue` is the
 * JSON of its children's defaults, so it always agrees with them.
 */
export function struct(
  id: string,
  accessMode: AccessMode,
  children: StructChild[],
  labels: Labels = {},
): TslProperty[] {
  const flattened = children.map((child) => ({
    id: `${id}.${child.id}`,
    propertyKey: child.id,
    name: child.name ?? child.id,
    ...describe(child),
    accessMode,
    dataSpec: { ...child.dataSpec, parentId: id },
  }));
  const defaults: Record<string, unknown> = {};
  for (const child of flattened) defaults[child.id] = convertDefault(child.dataSpec);
  const writable = accessMode !== "R";
  const dataSpec: DataSpec = writable
    ? { dataType: "STRUCT", defaultValue: stringifyJson(defaults) }
    : { dataType: "STRUCT" };
  return [property(id, accessMode, dataSpec, labels), ...flattened];
}

/** An event output or service input/output. */
export function parameter(id: string, dataSpec: DataSpec, ref?: string, labels: Labels = {}): TslParameter {
  return {
    id,
    propertyKey: id,
    name: labels.name ?? id,
    ...describe(labels),
    dataSpec,
    ...(ref === undefined ? {} : { ref }),
  };
}

function describe(labels: Labels): { description?: string } {
  return labels.description === undefined ? {} : { description: labels.description };
}

/** BOOL mapping with the keys `false` and `true`. */
export function boolMapping(whenFalse: string, whenTrue: string): Record<string, string> {
  return { false: whenFalse, true: whenTrue };
}
