import type { DataSpec, DataType, StringEncoding } from "../catalogue/types";
import { stringifyJson } from "../http/lossless-json";
import type { PropertyValue } from "../state/types";

/**
 * Checks one value against a non-STRUCT data definition. Each function appends human-readable
 * problems (prefixed with the property path) and returns the value in its stored form, or
 * `undefined` when it does not fit.
 */

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };
const FLOAT32_MAX = 3.4028234663852886e38;

const ENCODINGS: Record<StringEncoding, { pattern: RegExp; words: string }> = {
  HEX: { pattern: /^(?:[0-9A-Fa-f]{2})*$/, words: "an even number of hex digits" },
  ASCII: { pattern: /^[\x20-\x7E]*$/, words: "printable ASCII characters" },
  UTF8: { pattern: /^[\s\S]*$/u, words: "UTF-8 text" },
  BASE64: { pattern: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, words: "base64" },
};

/** A short rendering of a value for messages. */
export function show(value: unknown): string {
  let text: string;
  try {
    text = value === undefined ? "undefined" : stringifyJson(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Checks and normalises a value of a non-STRUCT data type. */
export function checkValue(
  path: string,
  dataType: DataType,
  spec: DataSpec,
  raw: unknown,
  problems: string[],
): PropertyValue | undefined {
  if (raw === null || raw === undefined)
    return fail(problems, `${path}: a value is required, got ${show(raw)}`);
  switch (dataType) {
    case "BOOL":
      return checkBool(path, spec, raw, problems);
    case "INT":
      return checkInteger(path, spec, raw, problems, "INT");
    case "LONG":
      return checkInteger(path, spec, raw, problems, "LONG");
    case "FLOAT":
    case "DOUBLE":
      return checkReal(path, spec, raw, problems, dataType);
    case "DATE":
      return checkDate(path, raw, problems);
    case "ENUM":
      return checkEnum(path, spec, raw, problems);
    case "STRING":
      return checkString(path, spec, raw, problems);
    case "ARRAY":
      return checkArray(path, spec, raw, problems);
    case "STRUCT":
      return fail(problems, `${path}: a STRUCT is not allowed here`);
  }
}

function fail(problems: string[], message: string): undefined {
  problems.push(message);
  return undefined;
}

function checkBool(path: string, spec: DataSpec, raw: unknown, problems: string[]): boolean | undefined {
  const value = raw === true || raw === "true" ? true : raw === false || raw === "false" ? false : undefined;
  if (value === undefined)
    return fail(problems, `${path}: expected a BOOL (true or false), got ${show(raw)}`);
  if (spec.mapping && !(String(value) in spec.mapping)) {
    return fail(problems, `${path}: ${value} is not a key of the mapping ${show(spec.mapping)}`);
  }
  return value;
}

function checkRange(path: string, spec: DataSpec, value: number | bigint, problems: string[]): boolean {
  const { min, max } = spec.validator ?? {};
  if (min !== undefined && value < min)
    return !fail(problems, `${path}: ${value} is below the minimum ${min}`);
  if (max !== undefined && value > max)
    return !fail(problems, `${path}: ${value} is above the maximum ${max}`);
  return true;
}

function checkInteger(
  path: string,
  spec: DataSpec,
  raw: unknown,
  problems: string[],
  dataType: "INT" | "LONG",
): number | bigint | undefined {
  const isInteger = (typeof raw === "number" && Number.isInteger(raw)) || typeof raw === "bigint";
  if (!isInteger) return fail(problems, `${path}: expected an integer (${dataType}), got ${show(raw)}`);
  const bounds = dataType === "INT" ? INT32 : INT64;
  if (raw < bounds.min || raw > bounds.max)
    return fail(problems, `${path}: ${raw} is out of the ${dataType} range`);
  if (!checkRange(path, spec, raw, problems)) return undefined;
  return typeof raw === "bigint" && Number.isSafeInteger(Number(raw)) ? Number(raw) : raw;
}

function checkReal(
  path: string,
  spec: DataSpec,
  raw: unknown,
  problems: string[],
  dataType: "FLOAT" | "DOUBLE",
): number | undefined {
  const value = typeof raw === "bigint" ? Number(raw) : raw;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    return fail(problems, `${path}: expected a number (${dataType}), got ${show(raw)}`);
  }
  if (dataType === "FLOAT" && Math.abs(value) > FLOAT32_MAX)
    return fail(problems, `${path}: ${value} is out of the FLOAT range`);
  return checkRange(path, spec, value, problems) ? value : undefined;
}

/** DATE values are milliseconds since the epoch: a non-negative integer, or a string of digits. */
function checkDate(path: string, raw: unknown, problems: string[]): number | undefined {
  const value = typeof raw === "string" && /^\d{1,16}$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    return fail(problems, `${path}: expected a DATE (milliseconds since the epoch), got ${show(raw)}`);
  }
  return value;
}

function checkEnum(
  path: string,
  spec: DataSpec,
  raw: unknown,
  problems: string[],
): number | string | undefined {
  if (typeof raw !== "number" && typeof raw !== "string") {
    return fail(problems, `${path}: expected an ENUM value, got ${show(raw)}`);
  }
  const key = String(raw);
  if (spec.mapping && !(key in spec.mapping)) {
    return fail(problems, `${path}: ${show(raw)} is not one of ${Object.keys(spec.mapping).join(", ")}`);
  }
  return /^-?\d+$/.test(key) ? Number(key) : key;
}

function checkSize(path: string, spec: DataSpec, size: number, unit: string, problems: string[]): boolean {
  const { minSize, maxSize } = spec.validator ?? {};
  if (minSize !== undefined && size < minSize)
    return !fail(problems, `${path}: ${size} ${unit}, fewer than ${minSize}`);
  if (maxSize !== undefined && size > maxSize)
    return !fail(problems, `${path}: ${size} ${unit}, more than ${maxSize}`);
  return true;
}

function checkString(path: string, spec: DataSpec, raw: unknown, problems: string[]): string | undefined {
  if (typeof raw !== "string") return fail(problems, `${path}: expected a STRING, got ${show(raw)}`);
  if (!checkSize(path, spec, raw.length, "characters", problems)) return undefined;
  const encoding = spec.encoding ? ENCODINGS[spec.encoding] : undefined;
  if (encoding && !encoding.pattern.test(raw)) {
    return fail(problems, `${path}: ${show(raw)} is not ${encoding.words} (encoding ${spec.encoding})`);
  }
  return raw;
}

function checkArray(
  path: string,
  spec: DataSpec,
  raw: unknown,
  problems: string[],
): PropertyValue[] | undefined {
  if (!Array.isArray(raw)) return fail(problems, `${path}: expected an ARRAY, got ${show(raw)}`);
  if (!checkSize(path, spec, raw.length, "elements", problems)) return undefined;
  const elementType = spec.elementDataType;
  if (!elementType || elementType === "STRUCT" || elementType === "ARRAY") {
    return fail(problems, `${path}: arrays of ${elementType ?? "unknown"} elements are not supported`);
  }
  // The validator's min/max bound the elements; minSize/maxSize bound the array itself.
  const elementSpec: DataSpec = {
    dataType: elementType,
    validator: { min: spec.validator?.min, max: spec.validator?.max },
  };
  if (spec.mapping) elementSpec.mapping = spec.mapping;
  const before = problems.length;
  const values = raw.map((element, i) =>
    checkValue(`${path}[${i}]`, elementType, elementSpec, element, problems),
  );
  return problems.length === before ? (values as PropertyValue[]) : undefined;
}
