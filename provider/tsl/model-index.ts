/**
 * A device's TSL model, indexed for configuration by the SDK's field index (`sdk/tsl/field-index.ts`,
 * shared with service-call inputs): top-level properties by id, STRUCT children by parent, and the
 * way a user may name a child inside a STRUCT value — the short id (`high`) or the full one
 * (`alarmThreshold.high`); the full one, the child's `id` in the model, is what is sent.
 */
import type { ThingModel, TslProperty } from "../../sdk";
import {
  childForKey,
  childIds,
  indexFields,
  shortChildId,
  specOf,
  type FieldIndex,
} from "../../sdk/tsl/field-index";

export { childForKey, childIds, shortChildId, specOf };

/** A TSL model with lookups for validation, wire conversion and defaults. */
export interface IndexedModel extends FieldIndex<TslProperty> {
  /** The model's `version`, when the platform gave one. */
  readonly version: string | undefined;
}

/** Whether the platform lets a configuration write this property (accessMode `W` or `RW`). */
export function isWritable(property: TslProperty): boolean {
  return property.accessMode === "W" || property.accessMode === "RW";
}

/** Indexes a model once; the result is shared by every device that has the same model. */
export function indexModel(model: ThingModel): IndexedModel {
  return { version: model.version, ...indexFields(model.properties) };
}

/** The ids of the writable top-level properties, for messages that list what is allowed. */
export function writablePropertyIds(model: IndexedModel): string[] {
  return [...model.topLevel.values()].filter(isWritable).map((p) => p.id);
}

/**
 * A stable text that identical models share (same version and same properties), so that a
 * fleet of one model is validated once however many devices it has.
 */
export function modelFingerprint(model: ThingModel): string {
  return JSON.stringify([model.version ?? null, model.properties]);
}
