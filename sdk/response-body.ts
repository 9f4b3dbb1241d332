/**
 * Reading a platform answer's body: JSON that keeps large ids exact, the success envelope (or a bare
 * OAuth token body), and a short account of a shape that does not match, with no values in it.
 */
import type { z } from "zod";
import { parseLosslessJson } from "./lossless-json";
import { envelopeSchema } from "./schemas/common";

/** A 2xx status. */
export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 300;
}

/** A body parsed, or not JSON. */
export type Parsed = { ok: true; value: unknown } | { ok: false };

/**
 * The `data` of a 2xx answer that is a success: the envelope with `status: "Success"`, a bare
 * OAuth token body from the token endpoint, or no body at all where the operation's schema allows
 * none (some servers answer DELETE with nothing). Undefined means the answer is a failure.
 */
export function readSuccess(
  spec: { readonly schema: z.ZodType<unknown>; readonly tokenEndpoint?: boolean },
  body: Parsed,
): { data: unknown; requestId?: string } | undefined {
  if (!body.ok) return undefined;
  if (body.value === undefined)
    return spec.schema.safeParse(undefined).success ? { data: undefined } : undefined;
  if (spec.tokenEndpoint && isBareTokenBody(body.value)) return { data: body.value };
  const envelope = envelopeSchema.safeParse(body.value);
  if (!envelope.success || envelope.data.status !== "Success") return undefined;
  return { data: envelope.data.data, requestId: envelope.data.requestId };
}

/** A plain OAuth token response: an object with `access_token` and no envelope `status`. */
function isBareTokenBody(value: unknown): boolean {
  return typeof value === "object" && value !== null && "access_token" in value && !("status" in value);
}

/**
 * Parses a body; an empty body is `undefined`. Only a syntax error means "not JSON": anything else
 * (a runtime without the features lossless parsing needs) is a bug to report, not a bad response.
 */
export function tryParse(text: string): Parsed {
  if (text.trim() === "") return { ok: true, value: undefined };
  try {
    return { ok: true, value: parseLosslessJson(text) };
  } catch (error) {
    if (error instanceof SyntaxError) return { ok: false };
    throw error;
  }
}

/** A short account of schema mismatches, by field path; no values, so nothing secret can leak. */
export function describeIssues(error: z.ZodError): string {
  const issues = error.issues.slice(0, 5).map((issue) => {
    const path = ["data", ...issue.path.map(String)].join(".");
    return `${path}: ${issue.message}`;
  });
  const more = error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : "";
  return `${issues.join("; ")}${more}`;
}
