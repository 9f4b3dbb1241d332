/**
 * The rules of one TSL dataSpec applied to a scalar value (every dataType but STRUCT and ARRAY,
 * whose shapes check-value.ts walks): type, 32/64-bit range, `min`/`max`, `minSize`/`maxSize`,
 * STRING encoding and the ENUM/BOOL `mapping` keys. Each broken rule is reported once, in words
 * that name the rule and the device whose model it comes from.
 */
import type { DataSpec } from "../schemas/tsl";

/** Where a problem is reported, and whose model the rules come from. */
export interface RuleContext {
  /** Whose TSL model this is, e.g. `device 9007199254741001`. */
  readonly source: string;
  /** Records a broken rule of the value at `path` (e.g. `alarmThreshold.high`, `schedule[2]`). */
  report(path: string, message: string): void;
}

/** `dataType` for a property's own value, `elementDataType` for the elements of an ARRAY. */
export type TypeRule = "dataType" | "elementDataType";

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };
const FLOAT32_MAX = 3.4028234663852886e38;
const INTEGER_TEXT = /^-?\d+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** STRING encodings we can check; UTF8 is every JavaScript string. */
const ENCODINGS: Record<string, { test: (text: string) => boolean; words: string }> = {
  // Hex encodes bytes: two digits each.
  HEX: {
    test: (text) => /^(?:[0-9A-Fa-f]{2})*$/.test(text),
    words: "an even number of hex digits (0-9, A-F)",
  },
  ASCII: {
    test: (text) => [...text].every((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) <= 0x7e),
    words: "printable ASCII characters only",
  },
  BASE64: { test: (text) => BASE64.test(text), words: "base64 text (A-Z, a-z, 0-9, +, /, = padding)" },
};

/** A value as a user recognises it in a message: numbers bare, strings quoted, shapes named. */
export function describeValue(value: unknown): string {
  if (typeof value === "string")
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (Array.isArray(value)) return `a list of ${value.length} element${value.length === 1 ? "" : "s"}`;
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return String(value);
}

/** Applies the rules of a scalar dataType; STRUCT and ARRAY are not scalars and are left alone. */
export function checkScalar(
  value: unknown,
  spec: DataSpec,
  path: string,
  ctx: RuleContext,
  typeRule: TypeRule,
): void {
  const type = typeRule === "dataType" ? spec.dataType : spec.elementDataType;
  const fail = (message: string) => ctx.report(path, message);
  const typeSource = `(TSL ${typeRule} ${type} of ${ctx.source})`;
  switch (type) {
    case "BOOL":
      if (typeof value !== "boolean")
        return fail(`must be true or false ${typeSource}, got ${describeValue(value)}`);
      return checkMapping(String(value), spec, "BOOL", path, ctx);
    case "STRING":
      if (typeof value !== "string")
        return fail(`must be a string ${typeSource}, got ${describeValue(value)}`);
      // One failure per value: a wrong length is reported before the characters are looked at.
      if (!checkSize([...value].length, "character", spec, path, ctx)) return undefined;
      return checkEncoding(value, spec, path, ctx);
    case "INT":
      if (typeof value !== "number" || !Number.isInteger(value)) {
        return fail(`must be a whole number ${typeSource}, got ${describeValue(value)}`);
      }
      if (value < INT32.min || value > INT32.max) {
        return fail(`must fit a 32-bit INT (${INT32.min} to ${INT32.max}) ${typeSource}, got ${value}`);
      }
      return checkRange(value, spec, path, ctx);
    case "LONG":
      return checkLong(value, spec, path, ctx, typeSource);
    case "DATE":
      return checkDate(value, spec, path, ctx, typeSource);
    case "FLOAT":
    case "DOUBLE":
      if (typeof value !== "number" || !Number.isFinite(value)) {
        return fail(`must be a number ${typeSource}, got ${describeValue(value)}`);
      }
      if (type === "FLOAT" && Math.abs(value) > FLOAT32_MAX) {
        return fail(
          `must fit a 32-bit FLOAT (at most ${FLOAT32_MAX} in magnitude) ${typeSource}, got ${value}`,
        );
      }
      return checkRange(value, spec, path, ctx);
    case "ENUM":
      return checkEnum(value, spec, path, ctx, typeSource);
    default:
      return undefined;
  }
}

/**
 * LONG: a whole number, or a string of digits for values beyond 2^53 that a JavaScript number (and
 * Pulumi state, which holds float64) cannot carry exactly.
 */
function checkLong(value: unknown, spec: DataSpec, path: string, ctx: RuleContext, typeSource: string): void {
  const fail = (message: string) => ctx.report(path, message);
  if (typeof value === "number") {
    if (!Number.isInteger(value)) return fail(`must be a whole number ${typeSource}, got ${value}`);
    if (!Number.isSafeInteger(value)) {
      return fail(
        `is beyond 2^53, where a number loses digits; give it as a string of digits, e.g. "9007199254740993" ` +
          `${typeSource}, got ${value}`,
      );
    }
  } else if (typeof value !== "string" || !INTEGER_TEXT.test(value)) {
    return fail(`must be a whole number or a string of digits ${typeSource}, got ${describeValue(value)}`);
  }
  const big = BigInt(value);
  if (big < INT64.min || big > INT64.max) {
    return fail(`must fit a 64-bit LONG (${INT64.min} to ${INT64.max}) ${typeSource}, got ${String(value)}`);
  }
  checkRange(value, spec, path, ctx);
}

/** DATE: milliseconds since the epoch, a whole number not below zero (or its digits). */
function checkDate(value: unknown, spec: DataSpec, path: string, ctx: RuleContext, typeSource: string): void {
  const millis = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof millis !== "number" || !Number.isSafeInteger(millis) || millis < 0) {
    ctx.report(
      path,
      `must be milliseconds since the epoch, a whole number from 0 ${typeSource}, got ${describeValue(value)}`,
    );
    return;
  }
  checkRange(millis, spec, path, ctx);
}

function checkEnum(value: unknown, spec: DataSpec, path: string, ctx: RuleContext, typeSource: string): void {
  const isKeyLike = (typeof value === "number" && Number.isInteger(value)) || typeof value === "string";
  if (!isKeyLike) {
    ctx.report(
      path,
      `must be an ENUM value (a whole number or a string) ${typeSource}, got ${describeValue(value)}`,
    );
    return;
  }
  checkMapping(String(value), spec, "ENUM", path, ctx);
}

/** ENUM and BOOL values must be keys of `mapping` when the model gives one. */
function checkMapping(key: string, spec: DataSpec, type: string, path: string, ctx: RuleContext): void {
  const mapping = spec.mapping;
  if (!mapping || Object.keys(mapping).length === 0 || Object.hasOwn(mapping, key)) return;
  const allowed = Object.entries(mapping)
    .map(([k, label]) => `${k} (${label})`)
    .join(", ");
  ctx.report(
    path,
    `must be one of the ${type} mapping keys ${allowed} (TSL mapping of ${ctx.source}), got ${key}`,
  );
}

/** Compares a number or a string of digits with a bound, exactly where both are integers. */
function compareWithBound(value: number | string, bound: number): number {
  if (typeof value === "string" && Number.isInteger(bound)) {
    const difference = BigInt(value) - BigInt(bound);
    return difference === 0n ? 0 : difference < 0n ? -1 : 1;
  }
  return Math.sign(Number(value) - bound);
}

/** `validator.min` / `validator.max` of numbers (and of numeric ARRAY elements). */
export function checkRange(value: number | string, spec: DataSpec, path: string, ctx: RuleContext): void {
  const { min, max } = spec.validator ?? {};
  if (min !== undefined && compareWithBound(value, min) < 0) {
    ctx.report(path, `must be at least ${min} (TSL validator min of ${ctx.source}), got ${value}`);
  }
  if (max !== undefined && compareWithBound(value, max) > 0) {
    ctx.report(path, `must be at most ${max} (TSL validator max of ${ctx.source}), got ${value}`);
  }
}

/**
 * `validator.minSize` / `validator.maxSize`: characters of a STRING, elements of an ARRAY.
 * Returns whether the size fits.
 */
export function checkSize(
  size: number,
  unit: string,
  spec: DataSpec,
  path: string,
  ctx: RuleContext,
): boolean {
  const { minSize, maxSize } = spec.validator ?? {};
  const count = (n: number) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (minSize !== undefined && size < minSize) {
    ctx.report(
      path,
      `must have at least ${count(minSize)} (TSL validator minSize of ${ctx.source}), got ${count(size)}`,
    );
    return false;
  }
  if (maxSize !== undefined && size > maxSize) {
    ctx.report(
      path,
      `must have at most ${count(maxSize)} (TSL validator maxSize of ${ctx.source}), got ${count(size)}`,
    );
    return false;
  }
  return true;
}

function checkEncoding(value: string, spec: DataSpec, path: string, ctx: RuleContext): void {
  // An encoding the platform added later (kept as sent) checks nothing rather than failing.
  const encoding =
    spec.encoding !== undefined && Object.hasOwn(ENCODINGS, spec.encoding)
      ? ENCODINGS[spec.encoding]
      : undefined;
  if (!encoding || encoding.test(value)) return;
  ctx.report(
    path,
    `must be ${encoding.words} (TSL encoding ${spec.encoding} of ${ctx.source}), got ${describeValue(value)}`,
  );
}
