/**
 * A policy's configuration, as a team sets it with `--policy-pack-config` (a JSON file: policy
 * name → `{ enforcementLevel, …settings }`). Each policy declares a JSON schema (the engine
 * validates the file against it and fills its defaults) and reads its settings through a zod
 * schema with the same defaults, so that it behaves alike whoever filled them.
 */
import { z } from "zod";
import type { PolicyConfigSchema } from "@pulumi/policy";

/** A policy's settings, parsed; a wrong value fails the policy naming the setting and the rule. */
export function settingsOf<T extends z.ZodType>(
  policy: string,
  schema: T,
  config: object | undefined,
): z.output<T> {
  const { enforcementLevel: _level, ...rest } = (config ?? {}) as Record<string, unknown>;
  const parsed = schema.safeParse(rest);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map(
    (issue) => `${issue.path.join(".") || "(config)"}: ${issue.message}`,
  );
  throw new Error(`policy ${policy}: its configuration is wrong: ${problems.join("; ")}`);
}

/** A JSON schema for a policy's configuration (`configSchema`). */
export function configSchema(properties: PolicyConfigSchema["properties"]): PolicyConfigSchema {
  return { properties };
}
