/**
 * One value against its TSL field: scalars by value-rules.ts, STRUCTs by their children (unknown
 * children, a child named twice, read-only children, required children), ARRAYs by size and by
 * `elementDataType`. The same walk serves DeviceConfig's property values and a service call's
 * inputs, so that both follow one set of rules.
 */
import { isPlainObject } from "../plain-object";
import type { DataSpec } from "../schemas/tsl";
import { childForKey, childIds, specOf, type FieldIndex, type TslField } from "./field-index";
import { checkScalar, checkSize, describeValue, type RuleContext } from "./value-rules";

/** Where problems go, and what the caller's values may hold that is not checked. */
export interface ValueCheckContext extends RuleContext {
  /** Values to leave alone, e.g. what a Pulumi preview does not know yet. */
  readonly skip?: (value: unknown) => boolean;
  /** Said after "must have a value" for null or undefined, e.g. how to stop managing it. */
  readonly missingValueHint?: string;
}

export { isPlainObject };

/** Checks one value against its field's dataSpec, recursing into STRUCTs and ARRAYs. */
export function checkFieldValue(
  field: TslField,
  value: unknown,
  path: string,
  index: FieldIndex<TslField>,
  ctx: ValueCheckContext,
): void {
  if (ctx.skip?.(value)) return;
  if (value === null || value === undefined) {
    const hint = ctx.missingValueHint ? `; ${ctx.missingValueHint}` : "";
    ctx.report(path, `must have a value${hint} (got ${describeValue(value)})`);
    return;
  }
  const spec = specOf(field);
  if (spec.dataType === "STRUCT") checkStruct(field, value, path, index, ctx);
  else if (spec.dataType === "ARRAY") checkArray(field, value, path, index, ctx);
  else checkScalar(value, spec, path, ctx, "dataType");
}

function checkStruct(
  field: TslField,
  value: unknown,
  path: string,
  index: FieldIndex<TslField>,
  ctx: ValueCheckContext,
): void {
  if (!isPlainObject(value)) {
    const fields = childIds(index, field.id).join(", ");
    ctx.report(
      path,
      `must be an object keyed by the STRUCT's fields (${fields}) (TSL dataType STRUCT of ${ctx.source}), ` +
        `got ${describeValue(value)}`,
    );
    return;
  }
  checkStructFields(field.id, value, path, index, ctx);
}

/** The fields of one STRUCT value: each known and writable, none twice, every required one present. */
function checkStructFields(
  parentId: string,
  value: Record<string, unknown>,
  path: string,
  index: FieldIndex<TslField>,
  ctx: ValueCheckContext,
): void {
  const given = new Set<string>();
  for (const [key, childValue] of Object.entries(value)) {
    const child = childForKey(index, parentId, key);
    const childPath = `${path}.${key}`;
    if (!child) {
      const fields = childIds(index, parentId).join(", ") || "none";
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
      checkFieldValue(child, childValue, childPath, index, ctx);
    }
  }
  for (const child of index.children.get(parentId) ?? []) {
    if (child.dataSpec?.validator?.required === true && !given.has(child.id)) {
      const key = child.id.startsWith(`${parentId}.`) ? child.id.slice(parentId.length + 1) : child.id;
      ctx.report(`${path}.${key}`, `is required (TSL validator required of ${ctx.source}), got no value`);
    }
  }
}

function checkArray(
  field: TslField,
  value: unknown,
  path: string,
  index: FieldIndex<TslField>,
  ctx: ValueCheckContext,
): void {
  const spec = specOf(field);
  if (!Array.isArray(value)) {
    const of = spec.elementDataType ? ` of ${spec.elementDataType}` : "";
    ctx.report(
      path,
      `must be a list${of} (TSL dataType ARRAY of ${ctx.source}), got ${describeValue(value)}`,
    );
    return;
  }
  checkSize(value.length, "element", spec, path, ctx);
  value.forEach((element, i) => checkElement(field, spec, element, `${path}[${i}]`, index, ctx));
}

/**
 * One ARRAY element against `elementDataType`. The ARRAY's `min`/`max` bound its numeric elements
 * (its `minSize`/`maxSize` bound the list), and its `mapping` names ENUM/BOOL element values.
 */
function checkElement(
  field: TslField,
  spec: DataSpec,
  element: unknown,
  path: string,
  index: FieldIndex<TslField>,
  ctx: ValueCheckContext,
): void {
  if (ctx.skip?.(element)) return;
  const type = spec.elementDataType;
  if (type === undefined) return;
  if (type === "STRUCT") {
    if (!isPlainObject(element)) {
      ctx.report(
        path,
        `must be an object (TSL elementDataType STRUCT of ${ctx.source}), got ${describeValue(element)}`,
      );
    } else if (index.children.has(field.id)) {
      checkStructFields(field.id, element, path, index, ctx);
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
