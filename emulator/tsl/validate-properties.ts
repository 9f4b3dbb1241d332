import type { TslModel, TslProperty } from "../catalogue/types";
import type { PropertyMap, PropertyValue } from "../state/types";
import { childrenOf, isWritable } from "./default-values";
import { checkValue, show } from "./validate-value";

/** How strictly to check. */
export interface PropertyCheckOptions {
  /** Out-of-band changes through the control API may set read-only properties too. */
  ignoreAccessMode?: boolean;
}

/** Outcome of checking a property map against a TSL model. */
export interface PropertyCheckResult {
  /** The values in stored form; STRUCTs keyed by their children's full ids. */
  values: PropertyMap;
  /** Every rule broken, one sentence each; empty when the input is valid. */
  problems: string[];
}

interface TslIndex {
  byId: Map<string, TslProperty>;
  children: Map<string, TslProperty[]>;
}

const indexes = new WeakMap<TslModel, TslIndex>();

function indexOf(tsl: TslModel): TslIndex {
  let index = indexes.get(tsl);
  if (!index) {
    index = { byId: new Map(tsl.properties.map((p) => [p.id, p])), children: new Map() };
    for (const p of tsl.properties) {
      if (p.dataSpec.dataType === "STRUCT") index.children.set(p.id, childrenOf(tsl, p.id));
    }
    indexes.set(tsl, index);
  }
  return index;
}

/**
 * Checks a map of property id → value as Update Device Properties Incrementally and TSL tasks receive
 * it: each property exists at the top level, is writable (W or RW), and its value fits the data type
 * and validator; a STRUCT is an object keyed by its children's ids (full `<parent>.<child>` ids, or
 * the short child ids) with every required child present.
 */
export function checkProperties(
  tsl: TslModel,
  input: Record<string, unknown>,
  options: PropertyCheckOptions = {},
): PropertyCheckResult {
  const index = indexOf(tsl);
  const values: PropertyMap = {};
  const problems: string[] = [];
  for (const [id, raw] of Object.entries(input)) {
    const property = index.byId.get(id);
    if (!property) {
      problems.push(`${id}: no such property in TSL model version ${tsl.version}`);
    } else if (property.dataSpec.parentId !== undefined) {
      problems.push(`${id}: a child of the STRUCT ${property.dataSpec.parentId}; send it inside that object`);
    } else if (!options.ignoreAccessMode && !isWritable(property)) {
      problems.push(
        `${id}: read-only (accessMode ${property.accessMode}); only W and RW properties can be set`,
      );
    } else {
      const value = checkOne(index, property, raw, problems, options);
      if (value !== undefined) values[id] = value;
    }
  }
  return { values, problems };
}

function checkOne(
  index: TslIndex,
  property: TslProperty,
  raw: unknown,
  problems: string[],
  options: PropertyCheckOptions,
): PropertyValue | undefined {
  const spec = property.dataSpec;
  if (spec.dataType !== "STRUCT") return checkValue(property.id, spec.dataType, spec, raw, problems);
  return checkStruct(property, index.children.get(property.id) ?? [], raw, problems, options);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The child a key names: its full id, or the part after `<parent>.`. */
function childFor(parent: TslProperty, children: TslProperty[], key: string): TslProperty | undefined {
  return children.find((c) => c.id === key || c.id === `${parent.id}.${key}`);
}

function checkStruct(
  parent: TslProperty,
  children: TslProperty[],
  raw: unknown,
  problems: string[],
  options: PropertyCheckOptions,
): PropertyMap | undefined {
  if (!isPlainObject(raw)) {
    problems.push(`${parent.id}: expected a STRUCT (an object keyed by child ids), got ${show(raw)}`);
    return undefined;
  }
  const before = problems.length;
  const value: PropertyMap = {};
  for (const [key, childRaw] of Object.entries(raw)) {
    const child = childFor(parent, children, key);
    if (!child) {
      problems.push(
        `${parent.id}.${key.replace(`${parent.id}.`, "")}: no such child of the STRUCT ${parent.id}`,
      );
    } else if (child.id in value) {
      problems.push(`${child.id}: given twice`);
    } else if (!options.ignoreAccessMode && !isWritable(child)) {
      problems.push(`${child.id}: read-only (accessMode ${child.accessMode})`);
    } else {
      const checked = checkValue(child.id, child.dataSpec.dataType, child.dataSpec, childRaw, problems);
      if (checked !== undefined) value[child.id] = checked;
    }
  }
  for (const child of children) {
    if (
      child.dataSpec.validator?.required &&
      !Object.keys(raw).some((k) => childFor(parent, children, k) === child)
    ) {
      problems.push(`${child.id}: required in the STRUCT ${parent.id}`);
    }
  }
  return problems.length === before ? value : undefined;
}
