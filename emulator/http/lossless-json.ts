/**
 * JSON text <-> values without losing 64-bit integers.
 *
 * Node 22's `JSON.parse` passes each primitive's source text to the reviver (`context.source`), and
 * `JSON.rawJSON` lets `JSON.stringify` emit a number literal verbatim. Integer literals beyond
 * `Number.MAX_SAFE_INTEGER` therefore parse to `bigint`, and `bigint` (or a raw JSON value) is written
 * back as an exact number. TypeScript's ES2023 lib does not declare either API yet, hence the local
 * typings below.
 */

/** The opaque value `JSON.rawJSON` returns; `JSON.stringify` writes its text as-is. */
export interface RawJson {
  readonly rawJSON: string;
}

interface JsonWithRaw {
  rawJSON(text: string): RawJson;
  isRawJSON(value: unknown): boolean;
}

const jsonWithRaw = JSON as unknown as JsonWithRaw;
const INTEGER_LITERAL = /^-?\d+$/;

function revive(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== "number" || Number.isSafeInteger(value)) return value;
  const source = context?.source;
  return source !== undefined && INTEGER_LITERAL.test(source) ? BigInt(source) : value;
}

/** Parses JSON text; integer literals outside the safe range become `bigint`. Throws `SyntaxError`. */
export function parseJson(text: string): unknown {
  return JSON.parse(text, revive);
}

function replace(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? jsonWithRaw.rawJSON(value.toString()) : value;
}

/** Serialises a value; `bigint` and {@link rawNumber} values become exact JSON numbers. */
export function stringifyJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, replace, indent);
}

/** A JSON number literal with exactly these digits, e.g. a 64-bit id sent as a number. */
export function rawNumber(digits: string): RawJson {
  if (!INTEGER_LITERAL.test(digits)) throw new TypeError(`not an integer literal: ${digits}`);
  return jsonWithRaw.rawJSON(digits);
}

/** Whether a value came from {@link rawNumber}. */
export function isRawJson(value: unknown): value is RawJson {
  return jsonWithRaw.isRawJSON(value);
}
