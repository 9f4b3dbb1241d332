/**
 * Property values as the review prints them: short, in Markdown code, and never a secret. A
 * preview's JSON shows a secret as Pulumi's secret signature with `"[secret]"` for its value (or
 * as the bare string `"[secret]"`), and a value not known until apply as the engine's unknown
 * sentinel; both print as words, and a value holding a secret anywhere prints as `[secret]` whole.
 */

import { redactThenCut } from "../../sdk/redact";

/** The engine's marker of a secret value (`sig.Secret`). */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";
const SECRET_SIGNATURE_VALUE = "1b47061264138c4ac30d75fd1eb44270";
/** The engine's marker of a value unknown until apply (`plugin.UnknownStringValue`). */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Longest rendering of one value; longer ones are shortened with an ellipsis. */
const MAX_VALUE_LENGTH = 80;

/** Whether a value is, or holds anywhere inside it, a secret. */
export function holdsSecret(value: unknown): boolean {
  if (value === "[secret]") return true;
  if (Array.isArray(value)) return value.some(holdsSecret);
  if (value !== null && typeof value === "object") {
    const object = value as Record<string, unknown>;
    if (object[SECRET_SIGNATURE] === SECRET_SIGNATURE_VALUE) return true;
    return Object.values(object).some(holdsSecret);
  }
  return false;
}

/** Whether a value is, or holds anywhere inside it, a value unknown until apply. */
export function holdsUnknown(value: unknown): boolean {
  if (value === UNKNOWN_VALUE) return true;
  if (Array.isArray(value)) return value.some(holdsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(holdsUnknown);
  return false;
}

/** A value as Markdown inline code: `"hall"`, `900`, `["a","b"]`, `[secret]`, `[unknown]`, `(none)`. */
export function showValue(value: unknown): string {
  if (holdsSecret(value)) return "`[secret]`";
  if (holdsUnknown(value)) return "`[known after apply]`";
  if (value === undefined || value === null) return "(none)";
  // Redacted before the cut: cut first, a secret straddling it would no longer be recognised.
  const text = redactThenCut(JSON.stringify(value), MAX_VALUE_LENGTH - 1);
  // A backtick inside inline code would end it: use a double-backtick span then.
  return text.includes("`") ? `\`\` ${text} \`\`` : `\`${text}\``;
}

/** Whether two plain values are equal (JSON-wise; key order ignored). */
export function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Whether a value is a plain object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
