/**
 * Validation of configuration values against a device's TSL model, as pure functions: the property
 * exists, it is writable (accessMode `W` or `RW`), and its value fits the dataSpec — scalars by
 * tsl-rules, STRUCTs by their children (unknown children, required children), ARRAYs by size and
 * by `elementDataType`. Values the engine does not know yet (preview) are skipped.
 */
import type { DataSpec, TslProperty } from "../../sdk";
import { isUnknown } from "../shared/input-checks";
import {
  childForKey,
  childIds,
  isWritable,
  specOf,
  writablePropertyIds,
  type IndexedModel,
} from "./model-index";
import { checkScalar, checkSize, describeValue, type RuleContext } from "./rules";

/** One broken rule: where (relative to `properties`) and what, without the resource's name. */
export interface TslProblem {
  /** E.g. `reportInterval`, `alarmThreshold.high`, `schedule[2]`. */
  readonly path: string;
  /** E.g. `must be at most 86400 (TSL validator max of device 9007199254741001), got 90000`. */
  readonly message: string;
}

/** A plain object (a STRUCT value), not a list and not null. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks configuration values (property id → value) against a model. `source` names whose model
 * it is in every message, e.g. `device 9007199254741001`.
 */
export function validateProperties(
  values: Readonly<Record<string, unknown>>,
  model: IndexedModel,
  source: string,
): TslProblem[] {
  const problems: TslProblem[] = [];
  const ctx: RuleContext = { source, report: (path, message) => problems.push({ path, message }) };
  for (const [id, value] of Object.entries(values)) {
    const property = model.topLevel.get(id);
    if (property) checkTopLevel(property, value, model, ctx);
    else reportUnknownProperty(id, model, ctx);
  }
  return problems;
}

function checkTopLevel(property: TslProperty, value: unknown, model: IndexedModel, ctx: RuleContext): void {
  if (!isWritable(property)) {
    const mode = property.accessMode ?? "(none)";
    ctx.report(
      property.id,
      `is read-only (TSL accessMode ${mode} of ${ctx.source}); only W and RW properties can be configured`,
    );
    return;
  }
  checkValue(property, value, property.id, model, ctx);
}

function reportUnknownProperty(id: string, model: IndexedModel, ctx: RuleContext): void {
  const child = model.byId.get(id);
  const parentId = child?.dataSpec?.parentId;
  if (child && parentId !== undefined) {
    const key = id.slice(parentId.length + 1) || id;
    ctx.report(
      id,
      `is a field of the STRUCT ${parentId} (TSL model of ${ctx.source}); set it inside that STRUCT, ` +
        `as properties.${parentId} = { ${key}: … }`,
    );
    return;
  }
  const version = model.version ? ` version ${model.version}` : "";
  ctx.report(
    id,
    `is not a property of the TSL model${version} of ${ctx.source}; writable properties: ` +
      (writablePropertyIds(model).join(", ") || "none"),
  );
}

/** Checks one value against its property's dataSpec, recursing into STRUCTs and ARRAYs. */
function checkValue(
  property: TslProperty,
  value: unknown,
  path: string,
  model: IndexedModel,
  ctx: RuleContext,
): void {
  if (isUnknown(value)) return;
  if (value === null || value === undefined) {
    ctx.report(
      path,
      `must have a value; to stop managing it, remove it from properties (got ${describeValue(value)})`,
    );
    return;
  }
  const spec = specOf(property);
  if (spec.dataType === "STRUCT") checkStruct(property, value, path, model, ctx);
  else if (spec.dataType === "ARRAY") checkArray(property, value, path, model, ctx);
  else checkScalar(value, spec, path, ctx, "dataType");
}

function checkStruct(
  property: TslProperty,
  value: unknown,
  path: string,
  model: IndexedModel,
  ctx: RuleContext,
): void {
  if (!isPlainObject(value)) {
    const fields = childIds(model, property.id).join(", ");
    ctx.report(
      path,
      `must be an object keyed by the STRUCT's fields (${fields}) (TSL dataType STRUCT of ${ctx.source}), ` +
        `got ${describeValue(value)}`,
    );
    return;
  }
  checkStructFields(property.id, value, path, model, ctx);
}

/** The fields of one STRUCT value: each known and writable, none twice, every required one present. */
function checkStructFields(
  parentId: string,
  value: Record<string, unknown>,
  path: string,
  model: IndexedModel,
  ctx: RuleContext,
): void {
  const given = new Set<string>();
  for (const [key, childValue] of Object.entries(value)) {
    const child = childForKey(model, parentId, key);
    const childPath = `${path}.${key}`;
    if (!child) {
      const fields = childIds(model, parentId).join(", ") || "none";
      ctx.report(
        childPath,
        `is not a field of the STRUCT ${parentId} (TSL model of ${ctx.source}); its fields: ${fields}`,
      );
    } else if (given.has(child.id)) {
      ctx.report(childPath, `names the field ${child.id} a second time; give each field once`);
    } else if (child.accessMode === "R") {
      given.add(child.id);
      ctx.report(childPath, `is read-only (TSL accessMode R of ${ctx.source}) and cannot be configured`);
    } else {
      given.add(child.id);
      checkValue(child, childValue, childPath, model, ctx);
    }
  }
  for (const child of model.children.get(parentId) ?? []) {
    if (child.dataSpec?.validator?.required === true && !given.has(child.id)) {
      const key = child.id.startsWith(`${parentId}.`) ? child.id.slice(parentId.length + 1) : child.id;
      ctx.report(`${path}.${key}`, `is required (TSL validator required of ${ctx.source}), got no value`);
    }
  }
}

function checkArray(
  property: TslProperty,
  value: unknown,
  path: string,
  model: IndexedModel,
  ctx: RuleContext,
): void {
  const spec = specOf(property);
  if (!Array.isArray(value)) {
    const of = spec.elementDataType ? ` of ${spec.elementDataType}` : "";
    ctx.report(
      path,
      `must be a list${of} (TSL dataType ARRAY of ${ctx.source}), got ${describeValue(value)}`,
    );
    return;
  }
  checkSize(value.length, "element", spec, path, ctx);
  value.forEach((element, index) => checkElement(property, spec, element, `${path}[${index}]`, model, ctx));
}

/**
 * One ARRAY element against `elementDataType`. The ARRAY's `min`/`max` bound its numeric elements
 * (its `minSize`/`maxSize` bound the list), and its `mapping` names ENUM/BOOL element values.
 */
function checkElement(
  property: TslProperty,
  spec: DataSpec,
  element: unknown,
  path: string,
  model: IndexedModel,
  ctx: RuleContext,
): void {
  if (isUnknown(element)) return;
  const type = spec.elementDataType;
  if (type === undefined) return;
  if (type === "STRUCT") {
    if (!isPlainObject(element)) {
      ctx.report(
        path,
        `must be an object (TSL elementDataType STRUCT of ${ctx.source}), got ${describeValue(element)}`,
      );
    } else if (model.children.has(property.id)) {
      checkStructFields(property.id, element, path, model, ctx);
    }
    return;
  }
  if (type === "ARRAY") {
    if (!Array.isArray(element)) {
      ctx.report(
        path,
        `must be a list (TSL elementDataType ARRAY of ${ctx.source}), got ${describeValue(element)}`,
      );
    }
    return;
  }
  // The element's own rules are the ARRAY's, minus the size rules that belong to the list.
  const validator = spec.validator
    ? { ...spec.validator, minSize: undefined, maxSize: undefined }
    : undefined;
  const elementSpec: DataSpec = { ...spec, validator };
  checkScalar(element, elementSpec, path, ctx, "elementDataType");
}
