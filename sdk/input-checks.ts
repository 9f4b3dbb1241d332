/**
 * Checks of caller input before anything is sent, so that a typo costs no request and an id can
 * never smuggle extra path segments into a URL. Failures are `ValidationError`s with 0 attempts.
 */
import type { z } from "zod";
import { ValidationError } from "./errors";
import type { HttpMethod } from "./transport";

const DIGITS = /^\d+$/;

/** A `ValidationError` for input the SDK refused to send. */
export function invalidInput(method: HttpMethod, path: string, reason: string): ValidationError {
  return new ValidationError({ method, path, attempts: 0, reason: `not sent: ${reason}` });
}

/** Parses `input` with `schema`, or throws a `ValidationError` listing each problem by field. */
export function checkInput<S extends z.ZodType>(
  method: HttpMethod,
  path: string,
  schema: S,
  input: unknown,
): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
  throw invalidInput(method, path, issues);
}

/** Throws unless `deviceId` is a string of digits (ids are never numbers in this SDK). */
export function checkDeviceId(method: HttpMethod, path: string, deviceId: unknown): string {
  if (typeof deviceId !== "string" || !DIGITS.test(deviceId)) {
    throw invalidInput(method, path, "deviceId must be a string of digits");
  }
  return deviceId;
}

/** Throws unless `ids` is a non-empty array of strings of digits; returns a copy. */
export function checkDeviceIds(method: HttpMethod, path: string, ids: readonly unknown[]): string[] {
  if (!Array.isArray(ids) || ids.length === 0)
    throw invalidInput(method, path, "deviceIds must not be empty");
  const bad = ids.find((id) => typeof id !== "string" || !DIGITS.test(id));
  if (bad !== undefined) {
    throw invalidInput(method, path, `deviceIds must be strings of digits, got ${String(bad)}`);
  }
  return ids as string[];
}
