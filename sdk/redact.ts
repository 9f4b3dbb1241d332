/**
 * Redaction of credentials from anything the SDK lets out of its hands: error messages and
 * properties, `onEvent` payloads, request paths.
 *
 * Two layers, because neither alone is enough: a registry of the exact secret values this process
 * has handled catches them anywhere — for example a server error message that echoes a token back —
 * and patterns catch credentials in the shapes the platform uses (`access_token=` in a query
 * string, `Bearer …`, JSON or form fields) that the registry does not know.
 *
 * The exact values go first, in every encoding a request carries them in (as is, URL-encoded,
 * form-encoded, inside a JSON string): a pattern stops at `&`, a space or a quote, so applied first
 * it would replace only the start of a secret holding one and leave the rest, no longer the exact
 * value, in plain sight. Every registered value counts, whatever its length: a short secret replaced
 * in a few unrelated words mangles a message; a secret left in it leaks.
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

/** Every registered secret's forms, longest first (recomputed when the registry changes). */
let formsInOrder: string[] | undefined;

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
  formsInOrder = undefined;
}

/** Remembers a long-lived secret (a client secret) for redaction, for the life of the process. */
export function pinSecret(secret: string | undefined): void {
  if (!isRegistrable(secret)) return;
  rotatingSecrets.delete(secret);
  pinnedSecrets.add(secret);
  formsInOrder = undefined;
}

function isRegistrable(secret: string | undefined): secret is string {
  return secret !== undefined && secret.length > 0;
}

/** Percent-escapes with either case of hex digit: servers echo both. */
function lowerHex(text: string): string {
  return text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
}

/**
 * The forms a secret takes in what a request or an answer carries: as is, URL-encoded (a query or a
 * path), form-encoded (`application/x-www-form-urlencoded`: spaces as `+`), inside a JSON string.
 * Longest first, so that no form is cut by a shorter one it contains.
 */
export function secretForms(secret: string): string[] {
  const url = encodeURIComponent(secret);
  const form = new URLSearchParams({ s: secret }).toString().slice(2);
  const json = JSON.stringify(secret).slice(1, -1);
  const forms = new Set([secret, url, lowerHex(url), form, lowerHex(form), json]);
  return [...forms].sort((a, b) => b.length - a.length);
}

function allForms(): string[] {
  // Longest first: a secret that contains another is replaced whole, not around it.
  formsInOrder ??= [...new Set([...pinnedSecrets, ...rotatingSecrets].flatMap(secretForms))].sort(
    (a, b) => b.length - a.length,
  );
  return formsInOrder;
}

function replaceAll(text: string, value: string): string {
  return text.includes(value) ? text.split(value).join(REDACTED) : text;
}

/**
 * Returns `text` with every registered secret value (in each of its {@link secretForms}) replaced,
 * then every credential pattern.
 */
export function redactText(text: string): string {
  let out = text;
  for (const form of allForms()) out = replaceAll(out, form);
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** Like {@link redactText}, tolerating `undefined` so optional fields stay optional. */
export function redactOptional(text: string | undefined): string | undefined {
  return text === undefined ? undefined : redactText(text);
}
