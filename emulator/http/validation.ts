import type { z } from "zod";
import { invalidParameter } from "./emulator-error";

/** Formats zod issues as `path: message` sentences. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

/** Parses a request part with a zod schema; a mismatch is a 400 `invalid_parameter` naming each issue. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalidParameter(`invalid ${what}: ${describeIssues(result.error.issues)}`);
}
