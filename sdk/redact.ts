/**
 * Redaction of credentials from anything the package lets out of its hands: error messages and
 * properties, `onEvent` payloads, request paths, and — at the package's last boundaries — log
 * lines, the CLI's output, the review summary, messages the engine prints and records.
 *
 * Two layers, because neither alone is enough: a registry of the exact secret values this process
 * has handled catches them anywhere — for example a server error message that echoes a token back —
 * and patterns catch credentials in the shapes the platform uses (`access_token=` in a query
 * string, `Bearer …`, JSON or form fields) that the registry does not know.
 *
 * The registry goes first and finds a secret in whatever form a server echoes it (secret-echoes.ts:
 * as is, percent-encoded in part or in whole, form-encoded, JSON-escaped, as HTML references): a
 * pattern stops at `&`, a space or a quote, so applied first it would replace only the start of a
 * secret holding one and leave the rest in plain sight. Every registered value counts, whatever its
 * length: a short secret replaced in a few unrelated words mangles a message; a secret left in it
 * leaks.
 *
 * Redaction works on a whole text. A text that is to be cut short is redacted first and cut after
 * ({@link redactThenCut}): cut first, a secret that straddles the cut no longer matches, and its
 * first half is shown.
 */
import { echoEnd, starters } from "./secret-echoes";

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

/** Every registered secret, longest first, split into characters (recomputed when the registry changes). */
let secretsInOrder: Registered[] | undefined;

/**
 * A text that ends with this many characters of a secret's start (or more) ends inside an echo the
 * server cut: those are redacted too. Fewer could be any word.
 */
const PARTIAL_ECHO_CHARACTERS = 4;

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
  secretsInOrder = undefined;
}

/** Remembers a long-lived secret (a client secret) for redaction, for the life of the process. */
export function pinSecret(secret: string | undefined): void {
  if (!isRegistrable(secret)) return;
  rotatingSecrets.delete(secret);
  pinnedSecrets.add(secret);
  secretsInOrder = undefined;
}

function isRegistrable(secret: string | undefined): secret is string {
  return secret !== undefined && secret.length > 0;
}

function registered(): Registered[] {
  // Longest first: a secret that contains another is replaced whole, not around it.
  secretsInOrder ??= [...new Set([...pinnedSecrets, ...rotatingSecrets])]
    .map((secret) => Array.from(secret))
    .sort((a, b) => b.length - a.length)
    .map((characters) => ({
      text: characters.join(""),
      head: characters.slice(0, PARTIAL_ECHO_CHARACTERS).join(""),
      characters,
      starters: starters(characters[0] as string),
    }));
  return secretsInOrder;
}

/** A registered secret, prepared for the search. */
interface Registered {
  readonly text: string;
  /** The first {@link PARTIAL_ECHO_CHARACTERS} characters. */
  readonly head: string;
  readonly characters: string[];
  readonly starters: ReadonlySet<string>;
}

/** What every escaped form starts with: a text without any of them can hold a secret only as is. */
const ESCAPE_STARTERS = /[%\\&+]/;

/** Whether `text` ends with the first `partial` characters of the secret, or more of them. */
function endsWithStart(text: string, secret: Registered, partial: number): boolean {
  if (!text.includes(secret.head)) return false;
  for (let count = partial; count < secret.characters.length; count += 1)
    if (text.endsWith(secret.characters.slice(0, count).join(""))) return true;
  return false;
}

/** `text` with every echo of one secret replaced. */
function redactSecret(text: string, secret: Registered): string {
  const partial = Math.min(PARTIAL_ECHO_CHARACTERS, secret.characters.length);
  // The common case, no escape anywhere: only the secret as is (or its start, at the end) can be
  // there, and a plain search finds it without walking every position.
  if (!ESCAPE_STARTERS.test(text) && !text.includes(secret.text) && !endsWithStart(text, secret, partial))
    return text;
  let out = "";
  let copied = 0;
  for (let at = 0; at < text.length;) {
    const end = secret.starters.has(text[at] as string)
      ? echoEnd(text, at, secret.characters, partial)
      : undefined;
    if (end === undefined || end === at) {
      at += 1;
      continue;
    }
    out += `${text.slice(copied, at)}${REDACTED}`;
    copied = end;
    at = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * Returns `text` with every echo of every registered secret replaced (see secret-echoes.ts), then
 * every credential pattern.
 */
export function redactText(text: string): string {
  let out = text;
  for (const secret of registered()) out = redactSecret(out, secret);
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** Like {@link redactText}, tolerating `undefined` so optional fields stay optional. */
export function redactOptional(text: string | undefined): string | undefined {
  return text === undefined ? undefined : redactText(text);
}

/**
 * `text` redacted whole, then cut to at most `limit` characters (with `…` when cut) at a place
 * that is neither inside a `[REDACTED]` nor inside a character's UTF-16 pair. The one way to
 * shorten a text that may hold a secret.
 */
export function redactThenCut(text: string, limit: number): string {
  const redacted = redactText(text);
  if (redacted.length <= limit) return redacted;
  let cut = limit;
  const marker = redacted.lastIndexOf(REDACTED, cut);
  if (marker !== -1 && marker + REDACTED.length > cut) cut = marker;
  if (/[\uDC00-\uDFFF]/.test(redacted[cut] ?? "")) cut -= 1;
  return `${redacted.slice(0, cut)}…`;
}

/**
 * Forgets every registered secret, pinned ones included: for tests that generate thousands of
 * secrets in one process, where each would otherwise be searched for in every later text.
 */
export function forgetSecrets(): void {
  pinnedSecrets.clear();
  rotatingSecrets.clear();
  secretsInOrder = undefined;
}
