/**
 * The signing headers of a webhook delivery: where they are read from (Node's headers, a plain
 * object or a fetch `Headers`) and the values the signature check then works on.
 */
import { WebhookVerificationError } from "./webhook-error";

/** The headers of a delivery: Node's `IncomingHttpHeaders`, a plain object, or a fetch `Headers`. */
export type WebhookHeaders =
  { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

/** Names of the signing headers. */
export const WEBHOOK_HEADERS = {
  signature: "x-msc-request-signature",
  timestamp: "x-msc-request-timestamp",
  nonce: "x-msc-request-nonce",
  webhookUuid: "x-msc-webhook-uuid",
} as const;

/** The value of the signing header `name`, refused when absent, empty or repeated. */
export function signingHeader(headers: WebhookHeaders, name: string): string {
  let value: string | readonly string[] | null | undefined;
  if (typeof headers.get === "function") value = (headers as { get(n: string): string | null }).get(name);
  else {
    const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : record[key];
  }
  if (Array.isArray(value)) {
    if (value.length !== 1) throw new WebhookVerificationError("missing_headers", `${name} is repeated`);
    value = value[0] as string;
  }
  if (typeof value !== "string" || value.trim() === "")
    throw new WebhookVerificationError("missing_headers", `${name} is missing`);
  return value.trim();
}
