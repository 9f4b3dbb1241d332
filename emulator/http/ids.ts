import { rawNumber, type RawJson } from "./lossless-json";

/** An id as written into a response: a string of digits, or an exact JSON number. */
export type RenderedId = string | RawJson;

/** Renders ids as JSON strings (the documented form) or, with `numericIds`, as exact JSON numbers. */
export function idRenderer(numericIds: boolean): (id: string) => RenderedId {
  return numericIds ? rawNumber : (id) => id;
}

/** Path or body deviceIds: digits only, no sign, at most 19 digits (a Long). */
export const DIGITS = /^\d{1,19}$/;
