/**
 * The fields of a TSL model — properties, or a service's inputs — indexed for value checks: the
 * top-level fields by id, STRUCT children by parent, and the way a user may name a child inside a
 * STRUCT value.
 *
 * The platform lists a STRUCT's children as fields of their own, with ids `<parent>.<child>` and
 * `dataSpec.parentId`. A user writes a STRUCT as an object keyed by child id; the short id (`high`)
 * is accepted as well as the full one (`alarmThreshold.high`).
 */
import { dataSpecSchema, type DataSpec } from "../schemas/tsl";

const NO_SPEC: DataSpec = dataSpecSchema.parse({});

/** What the value checks need of a TSL property or parameter. */
export interface TslField {
  readonly id: string;
  readonly propertyKey?: string | undefined;
  readonly dataSpec?: DataSpec | undefined;
  /** Properties have one; service inputs do not (they are all written by the caller). */
  readonly accessMode?: string | undefined;
}

/** Fields with lookups for validation. */
export interface FieldIndex<F extends TslField> {
  /** Top-level fields (no `parentId`), by id. */
  readonly topLevel: ReadonlyMap<string, F>;
  /** Children of STRUCT (and ARRAY of STRUCT) fields, by parent id, in model order. */
  readonly children: ReadonlyMap<string, readonly F[]>;
  /** Every field by id, children included. */
  readonly byId: ReadonlyMap<string, F>;
}

/** The dataSpec of a field; a field without one is treated as having no rules at all. */
export function specOf(field: TslField): DataSpec {
  return field.dataSpec ?? NO_SPEC;
}

/** Indexes fields once, in model order. */
export function indexFields<F extends TslField>(fields: readonly F[]): FieldIndex<F> {
  const topLevel = new Map<string, F>();
  const children = new Map<string, F[]>();
  const byId = new Map<string, F>();
  for (const field of fields) {
    byId.set(field.id, field);
    const parentId = field.dataSpec?.parentId;
    if (parentId === undefined) {
      topLevel.set(field.id, field);
      continue;
    }
    const siblings = children.get(parentId) ?? [];
    siblings.push(field);
    children.set(parentId, siblings);
  }
  return { topLevel, children, byId };
}

/** The short id of a child: `high` for `alarmThreshold.high`. */
export function shortChildId(parentId: string, child: TslField): string {
  const prefix = `${parentId}.`;
  return child.id.startsWith(prefix) ? child.id.slice(prefix.length) : (child.propertyKey ?? child.id);
}

/** The child a key of a STRUCT value names, by short or full id; undefined when none does. */
export function childForKey<F extends TslField>(
  index: FieldIndex<F>,
  parentId: string,
  key: string,
): F | undefined {
  const siblings = index.children.get(parentId) ?? [];
  return siblings.find((child) => child.id === key || shortChildId(parentId, child) === key);
}

/** The short ids of a parent's children, for messages that list what is allowed. */
export function childIds(index: FieldIndex<TslField>, parentId: string): string[] {
  return (index.children.get(parentId) ?? []).map((child) => shortChildId(parentId, child));
}
