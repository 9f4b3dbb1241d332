/**
 * Validation of configuration values against a device's TSL model, as pure functions: the property
 * exists and it is writable (accessMode `W` or `RW`) — here — and its value fits the dataSpec, by
 * the SDK's TSL value rules (`sdk/tsl`), the same rules a service call's inputs are checked by.
 * Values the engine does not know yet (preview) are skipped.
 */
import type { TslProperty } from "../../sdk";
import { checkFieldValue, isPlainObject, type ValueCheckContext } from "../../sdk/tsl/check-value";
import { isUnknown } from "../shared/input-checks";
import { isWritable, writablePropertyIds, type IndexedModel } from "./model-index";

export { isPlainObject };

/** One broken rule: where (relative to `properties`) and what, without the resource's name. */
export interface TslProblem {
  /** E.g. `reportInterval`, `alarmThreshold.high`, `schedule[2]`. */
  readonly path: string;
  /** E.g. `must be at most 86400 (TSL validator max of device 9007199254741001), got 90000`. */
  readonly message: string;
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
  const ctx: ValueCheckContext = {
    source,
    report: (path, message) => problems.push({ path, message }),
    skip: isUnknown,
    missingValueHint: "to stop managing it, remove it from properties",
  };
  for (const [id, value] of Object.entries(values)) {
    const property = model.topLevel.get(id);
    if (property) checkTopLevel(property, value, model, ctx);
    else reportUnknownProperty(id, model, ctx);
  }
  return problems;
}

function checkTopLevel(
  property: TslProperty,
  value: unknown,
  model: IndexedModel,
  ctx: ValueCheckContext,
): void {
  if (!isWritable(property)) {
    const mode = property.accessMode ?? "(none)";
    ctx.report(
      property.id,
      `is read-only (TSL accessMode ${mode} of ${ctx.source}); only W and RW properties can be configured`,
    );
    return;
  }
  checkFieldValue(property, value, property.id, model, ctx);
}

function reportUnknownProperty(id: string, model: IndexedModel, ctx: ValueCheckContext): void {
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
