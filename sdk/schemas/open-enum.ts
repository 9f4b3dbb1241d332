/**
 * Tolerant reading of enumerated values in responses: a value the platform sends that the SDK does
 * not know (a new status, a misspelling the API document itself mentions) is kept exactly as sent
 * instead of failing the whole response — one odd device must not fail a page of a hundred.
 * Requests stay strict: filters and inputs use plain `z.enum`.
 */
import { z } from "zod";

declare const unrecognized: unique symbol;

/**
 * A value the platform sent that is none of the documented ones, kept as the string it sent. It is
 * branded, so that a `switch` over the known values reaches its `default` with this type only
 * when every known value has its `case` (see {@link unrecognizedValue}).
 */
export type Unrecognized = string & { readonly [unrecognized]: true };

/** One of the documented values `Known`, or a value the platform sent that is none of them. */
export type OpenEnum<Known extends string> = Known | Unrecognized;

/**
 * A response field of documented values `known` that keeps any other value as the string the
 * platform sent (numbers and booleans as their text). `normalise` maps a known alternative
 * spelling to the documented one first.
 */
export function openEnum<const Known extends readonly [string, ...string[]]>(
  known: Known,
  normalise: (value: string) => string = (value) => value,
) {
  return z
    .union([z.string(), z.number().transform(String), z.boolean().transform(String)])
    .transform((value): OpenEnum<Known[number]> => normalise(value) as OpenEnum<Known[number]>);
}

/** Whether `value` is one of the documented values `known`. */
export function isKnownValue<const Known extends readonly string[]>(
  known: Known,
  value: string | undefined,
): value is Known[number] {
  return value !== undefined && known.includes(value);
}

/**
 * The `default` of a `switch` over an {@link OpenEnum}: compiles only when every known value has a
 * `case`, and returns the platform's value as a plain string.
 */
export function unrecognizedValue(value: Unrecognized): string {
  return value;
}
