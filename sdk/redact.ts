/**
 * Redaction of credentials from anything the SDK lets out of its hands: error messages and
 * properties, `onEvent` payloads, request paths.
 *
 * Two layers, because neither alone is enough: patterns catch credentials in the shapes the
 * platform uses (`access_token=` in a query string, `Bearer …`, JSON or form fields), and a registry
 * of the exact secret values this process has handled catches them anywhere else — for example a
 * server error message that echoes a token back.
 */

const REDACTED = "[REDACTED]";

/** Exact secret values seen in this process; bounded so that token rotation cannot grow it forever. */
const knownSecrets = new Set<string>();
const MAX_KNOWN_SECRETS = 256;

/** Secrets shorter than this are not registered: replacing a 3-letter string everywhere would mangle text. */
const MIN_SECRET_LENGTH = 6;

const PATTERNS: readonly [RegExp, string][] = [
  // Query strings and form bodies: access_token=…, refresh_token=…, client_secret=…
  [/\b(access_token|refresh_token|client_secret)=[^&\s"']*/gi, `$1=${REDACTED}`],
  // JSON bodies: "access_token": "…"
  [/("(?:access_token|refresh_token|client_secret)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi, `$1"${REDACTED}"`],
  // Authorization header values.
  [/\bBearer\s+[A-Za-z0-9._~+/=-]+/g, `Bearer ${REDACTED}`],
];

/** Remembers a secret value so that {@link redactText} removes it wherever it appears. */
export function registerSecret(secret: string | undefined): void {
  if (secret === undefined || secret.length < MIN_SECRET_LENGTH || knownSecrets.has(secret)) return;
  if (knownSecrets.size >= MAX_KNOWN_SECRETS) {
    // Sets iterate in insertion order, so the first entry is the oldest (an expired token, most likely).
    const oldest = knownSecrets.values().next().value;
    if (oldest !== undefined) knownSecrets.delete(oldest);
  }
  knownSecrets.add(secret);
}

/** Returns `text` with every credential pattern and every registered secret value replaced. */
export function redactText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  for (const secret of knownSecrets) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** Like {@link redactText}, tolerating `undefined` so optional fields stay optional. */
export function redactOptional(text: string | undefined): string | undefined {
  return text === undefined ? undefined : redactText(text);
}
