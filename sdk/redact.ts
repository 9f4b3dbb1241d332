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

/**
 * Rotating secrets (access and refresh tokens) seen in this process, oldest first; bounded so that
 * token rotation cannot grow it forever.
 */
const rotatingSecrets = new Set<string>();
const MAX_ROTATING_SECRETS = 256;

/**
 * Client secrets: never evicted, however many tokens rotate through the set above, because a
 * client secret stays valid for the life of the process (and beyond). Few per process.
 */
const pinnedSecrets = new Set<string>();

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

/**
 * Remembers a rotating secret (a token) so that {@link redactText} removes it wherever it appears.
 * When the registry is full the oldest one is forgotten: by then it has long expired.
 */
export function registerSecret(secret: string | undefined): void {
  if (!isRegistrable(secret) || pinnedSecrets.has(secret) || rotatingSecrets.has(secret)) return;
  if (rotatingSecrets.size >= MAX_ROTATING_SECRETS) {
    // Sets iterate in insertion order, so the first entry is the oldest.
    const oldest = rotatingSecrets.values().next().value;
    if (oldest !== undefined) rotatingSecrets.delete(oldest);
  }
  rotatingSecrets.add(secret);
}

/** Remembers a long-lived secret (a client secret) for redaction, for the life of the process. */
export function pinSecret(secret: string | undefined): void {
  if (!isRegistrable(secret)) return;
  rotatingSecrets.delete(secret);
  pinnedSecrets.add(secret);
}

function isRegistrable(secret: string | undefined): secret is string {
  return secret !== undefined && secret.length >= MIN_SECRET_LENGTH;
}

/** Returns `text` with every credential pattern and every registered secret value replaced. */
export function redactText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  for (const secrets of [pinnedSecrets, rotatingSecrets]) {
    for (const secret of secrets) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
  }
  return out;
}

/** Like {@link redactText}, tolerating `undefined` so optional fields stay optional. */
export function redactOptional(text: string | undefined): string | undefined {
  return text === undefined ? undefined : redactText(text);
}
