/**
 * The emulator's device catalogue: which product model a serial number belongs to, and the TSL model
 * of each. Exported so tests can pick properties by their characteristics instead of hard-coding ids.
 */
import { CONTROLLER } from "./controller";
import { GATEWAY } from "./gateway";
import { SENSOR } from "./sensor";
import { SUB_DEVICE } from "./sub-device";
import type { DataType, DeviceModel, TslModel, TslProperty } from "./types";

export * from "./types";
export { CONTROLLER, GATEWAY, SENSOR, SUB_DEVICE };

/** Every model; a serial number with no matching prefix is a {@link SENSOR}. */
export const CATALOGUE: readonly DeviceModel[] = [SENSOR, GATEWAY, CONTROLLER, SUB_DEVICE];

/** The model a serial number selects, by prefix, ignoring case. */
export function modelForSerial(sn: string): DeviceModel {
  const upper = sn.toUpperCase();
  return CATALOGUE.find((m) => upper.startsWith(m.serialPrefix.toUpperCase())) ?? SENSOR;
}

/** A model by its key (`sensor`, `gateway`, `controller`, `sub-device`). */
export function modelByKey(key: string): DeviceModel {
  const model = CATALOGUE.find((m) => m.key === key);
  if (!model) throw new Error(`unknown device model key ${key}`);
  return model;
}

/** A model's TSL at a version, or its first (default) version. */
export function tslOf(model: DeviceModel, version?: string): TslModel {
  const tsl =
    version === undefined ? model.tslVersions[0] : model.tslVersions.find((t) => t.version === version);
  if (!tsl) throw new Error(`model ${model.key} has no TSL version ${version ?? "(default)"}`);
  return tsl;
}

/** What {@link findProperty} matches on; every given field must match. */
export interface PropertyQuery {
  dataType?: DataType;
  /** `true`: accessMode W or RW; `false`: R. */
  writable?: boolean;
  accessMode?: TslProperty["accessMode"];
  /** Has a validator with `min`/`max` (numbers, array elements). */
  hasRange?: boolean;
  /** Has a `mapping`. */
  hasMapping?: boolean;
  /** STRING encoding. */
  encoding?: string;
  /** `true`: a STRUCT child; `false` (default): a top-level property. */
  child?: boolean;
}

/** The first property of a TSL model that matches a query, or `undefined`. */
export function findProperty(tsl: TslModel, query: PropertyQuery): TslProperty | undefined {
  return tsl.properties.find((p) => matches(p, query));
}

/**
 * The first property of a model's default TSL that matches, e.g.
 * `requireProperty(SENSOR, { dataType: "INT", writable: true })`; throws if there is none.
 */
export function requireProperty(model: DeviceModel, query: PropertyQuery): TslProperty {
  const found = findProperty(tslOf(model), query);
  if (!found) throw new Error(`model ${model.key} has no property matching ${JSON.stringify(query)}`);
  return found;
}

function matches(p: TslProperty, q: PropertyQuery): boolean {
  const writable = p.accessMode !== "R";
  const spec = p.dataSpec;
  return (
    (q.dataType === undefined || spec.dataType === q.dataType) &&
    (q.writable === undefined || writable === q.writable) &&
    (q.accessMode === undefined || p.accessMode === q.accessMode) &&
    (q.hasRange === undefined || (spec.validator?.min !== undefined) === q.hasRange) &&
    (q.hasMapping === undefined || (spec.mapping !== undefined) === q.hasMapping) &&
    (q.encoding === undefined || spec.encoding === q.encoding) &&
    (spec.parentId !== undefined) === (q.child ?? false)
  );
}

/**
 * A valid serial number of a model: its prefix and a counter, 16 characters, e.g.
 * `serialNumberFor(GATEWAY, 7)` → `6600000000000007`. Different `seed`s give disjoint ranges.
 */
export function serialNumberFor(model: DeviceModel, n: number, seed = 0): string {
  const body = (BigInt(seed) * 1_000_000n + BigInt(n))
    .toString()
    .padStart(16 - model.serialPrefix.length, "0");
  return `${model.serialPrefix}${body}`;
}
