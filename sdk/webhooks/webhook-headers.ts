/**
 * The signing headers of a webhook delivery: where they are read from (Node's headers, a plain
 * object or a fetch `Headers`) and the exact values the signature is then checked over.
 *
 * Only HTTP's optional whitespace around a value is removed (SP and HTAB, RFC 9110 §5.6.3), and a
 * value must then be visible ASCII, all the platform sends in these headers. `String.prototype.trim`
 * would also strip U+00A0 and other Unicode spaces: two different raw headers would verify as one
 * value, and a replay guard keyed on the raw header would take a replay padded with U+00A0 for a new
 * delivery. Past OWS, one value verified is one string a replay guard keys on.
 */
import { WebhookVerificationError, type WebhookVerificationErrorCode } from "./webhook-error";

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

/** The signing header values of one delivery, each exactly as the checks that follow see it. */
export interface SigningHeaders {
  readonly signature: string;
  readonly timestamp: string;
  readonly nonce: string;
  readonly webhookUuid: string;
}

/** HTTP's optional whitespace (OWS: SP and HTAB) at either end of a field value. */
const OPTIONAL_WHITESPACE = /^[ \t]+|[ \t]+$/g;

/** The first character that is not visible ASCII (VCHAR, U+0021 to U+007E), if any. */
const NOT_VISIBLE_ASCII = /[^\x21-\x7e]/u;

function rawHeader(headers: WebhookHeaders, name: string): string | undefined {
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
  return typeof value === "string" ? value : undefined;
}

/**
 * The value of the signing header `name` without the OWS around it; refused with `missing_headers`
 * when absent, empty or repeated, and with `notVisible` when it holds anything but visible ASCII.
 */
function signingHeader(
  headers: WebhookHeaders,
  name: string,
  notVisible: WebhookVerificationErrorCode,
): string {
  const value = rawHeader(headers, name)?.replace(OPTIONAL_WHITESPACE, "");
  if (value === undefined || value === "")
    throw new WebhookVerificationError("missing_headers", `${name} is missing`);
  const odd = NOT_VISIBLE_ASCII.exec(value);
  if (odd) {
    // The code point and where, never the value: enough to tell a proxy's mangling from a replay.
    const codePoint = (odd[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
    throw new WebhookVerificationError(
      notVisible,
      `${name} holds U+${codePoint} at ${odd.index}: the platform sends visible ASCII only`,
    );
  }
  return value;
}

/**
 * Reads the four signing headers. A signature, timestamp or nonce holding anything but visible
 * ASCII is `bad_signature`: the platform signs and sends no such value, so no signature of its covers
 * it as received. The webhook uuid is not signed; such a value is `missing_headers`, the header the
 * platform sends not being there.
 */
export function readSigningHeaders(headers: WebhookHeaders): SigningHeaders {
  return {
    signature: signingHeader(headers, WEBHOOK_HEADERS.signature, "bad_signature"),
    timestamp: signingHeader(headers, WEBHOOK_HEADERS.timestamp, "bad_signature"),
    nonce: signingHeader(headers, WEBHOOK_HEADERS.nonce, "bad_signature"),
    webhookUuid: signingHeader(headers, WEBHOOK_HEADERS.webhookUuid, "missing_headers"),
  };
}
