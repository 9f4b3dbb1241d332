/**
 * A device's TSL model, indexed for configuration: top-level properties by id, STRUCT children by
 * parent, and the way a user may name a child inside a STRUCT value.
 *
 * The platform lists a STRUCT's children as properties of their own, with ids `<parent>.<child>`
 * and `dataSpec.parentId`. A user writes a STRUCT as an object keyed by child id; we accept the
 * short id (`high`) as well as the full one (`alarmThreshold.high`) and send the full one, which is
 * the child's `id` in the model.
 */
import { dataSpecSchema, type DataSpec, type ThingModel, type TslProperty } from "../../sdk";

const NO_SPEC: DataSpec = dataSpecSchema.parse({});

/** A TSL model with lookups for validation, wire conversion and defaults. */
export interface IndexedModel {
  /** The model's `version`, when the platform gave one. */
  readonly version: string | undefined;
  /** Top-level properties (no `parentId`), by id. */
  readonly topLevel: ReadonlyMap<string, TslProperty>;
  /** Children of STRUCT (and ARRAY of STRUCT) properties, by parent id, in model order. */
  readonly children: ReadonlyMap<string, readonly TslProperty[]>;
  /** Every property by id, children included. */
  readonly byId: ReadonlyMap<string, TslProperty>;
}

/** The dataSpec of a property; a property without one is treated as having no rules at all. */
export function specOf(property: TslProperty): DataSpec {
  return property.dataSpec ?? NO_SPEC;
}

/** Whether the platform lets a configuration write this property (accessMode `W` or `RW`). */
export function isWritable(property: TslProperty): boolean {
  return property.accessMode === "W" || property.accessMode === "RW";
}

/** Indexes a model once; the result is shared by every device that has the same model. */
export function indexModel(model: ThingModel): IndexedModel {
  const topLevel = new Map<string, TslProperty>();
  const children = new Map<string, TslProperty[]>();
  const byId = new Map<string, TslProperty>();
  for (const property of model.properties) {
    byId.set(property.id, property);
    const parentId = property.dataSpec?.parentId;
    if (parentId === undefined) {
      topLevel.set(property.id, property);
      continue;
    }
    const siblings = children.get(parentId) ?? [];
    siblings.push(property);
    children.set(parentId, siblings);
  }
  return { version: model.version, topLevel, children, byId };
}

/** The short id of a child: `high` for `alarmThreshold.high`. */
export function shortChildId(parentId: string, child: TslProperty): string {
  const prefix = `${parentId}.`;
  return child.id.startsWith(prefix) ? child.id.slice(prefix.length) : (child.propertyKey ?? child.id);
}

/** The child a key of a STRUCT value names, by short or full id; undefined when none does. */
export function childForKey(model: IndexedModel, parentId: string, key: string): TslProperty | undefined {
  const siblings = model.children.get(parentId) ?? [];
  return siblings.find((child) => child.id === key || shortChildId(parentId, child) === key);
}

/** The short ids of a parent's children, for messages that list what is allowed. */
export function childIds(model: IndexedModel, parentId: string): string[] {
  return (model.children.get(parentId) ?? []).map((child) => shortChildId(parentId, child));
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
