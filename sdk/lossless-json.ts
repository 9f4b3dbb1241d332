/**
 * JSON that keeps 64-bit integers exact.
 *
 * The platform's ids (`deviceId`, `applicationId`, `taskId`) are Longs and LONG property values can
 * exceed 2^53, where a JavaScript number silently rounds. Node 22's `JSON.parse` passes a reviver
 * the source text of each primitive (`context.source`), so we can replace such numbers by their
 * exact digits before rounding ever happens; `JSON.rawJSON` does the reverse when sending.
 */

/** A JSON value as the SDK hands it out: integers beyond 2^53 arrive as strings of digits. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A value the SDK can send: like {@link JsonValue}, plus `bigint` for integers beyond 2^53 that must
 * travel as JSON numbers (for example a LONG property value).
 */
export type JsonInput =
  | string
  | number
  | boolean
  | null
  | bigint
  | undefined
  | readonly JsonInput[]
  | { readonly [key: string]: JsonInput };

/** Keys whose values are ids: always strings of digits, whatever their size. */
const ID_KEYS = new Set(["deviceId", "applicationId", "taskId"]);

const INTEGER_LITERAL = /^-?\d+$/;

interface ReviverContext {
  readonly source?: string;
}

type SourceReviver = (this: unknown, key: string, value: unknown, context?: ReviverContext) => unknown;

/** The parts of Node 22's JSON that TypeScript's ES2023 library does not describe yet. */
interface JsonWithSource {
  parse(text: string, reviver: SourceReviver): unknown;
  rawJSON(text: string): unknown;
}

const nativeJson = JSON as unknown as JsonWithSource;

function assertSupported(): void {
  if (typeof nativeJson.rawJSON !== "function") {
    throw new Error("pulumi-devplatform/sdk needs Node.js 22 or later (JSON.parse source text access)");
  }
}

function revive(key: string, value: unknown, context?: ReviverContext): unknown {
  if (typeof value !== "number") return value;
  const source = context?.source;
  if (source === undefined || !INTEGER_LITERAL.test(source)) return value;
  if (ID_KEYS.has(key)) return source;
  // Only integers that a double cannot hold become strings; small ones stay numbers.
  return Number.isSafeInteger(value) ? value : source;
}

/**
 * Parses JSON text. Ids become strings of digits; other integers beyond 2^53 become strings of
 * their exact digits; everything else is as `JSON.parse` gives it.
 */
export function parseLosslessJson(text: string): unknown {
  assertSupported();
  return nativeJson.parse(text, function (this: unknown, key, value, context) {
    return revive(key, value, context);
  });
}

/** Wraps a string of digits so that it is serialised as a JSON number, exactly. */
export function rawInteger(digits: string): unknown {
  if (!INTEGER_LITERAL.test(digits)) throw new TypeError(`not an integer: ${digits}`);
  assertSupported();
  return nativeJson.rawJSON(digits);
}

/** Serialises a request body; `bigint` values become exact JSON numbers. */
export function stringifyLosslessJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? rawInteger(v.toString()) : v));
}
