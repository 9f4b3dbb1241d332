/**
 * URLs compared as the server that receives them will read them: resolved by the WHATWG URL
 * parser (`..` and `%2e%2e` segments, backslashes read as `/` in an https URL), scheme and host
 * compared case-insensitively and without a trailing dot, before any prefix test. A URL with
 * credentials (`https://user@host/`), one that does not parse, and one whose resolved path still
 * holds an encoded dot, slash, backslash or percent sign (`%2f`, `%252e`: a server that decodes
 * once more reads another path) matches no prefix.
 */

/** Encoded characters a server may decode into a path separator or a dot segment. */
const ENCODED_SEPARATOR = /%(2e|2f|5c|25)/i;

/** A URL in the form a prefix test compares; undefined when it does not parse. */
export interface ResolvedUrl {
  readonly origin: string;
  readonly path: string;
  readonly credentials: boolean;
}

/** `text` resolved; undefined when it is no URL. */
export function resolveUrl(text: string): ResolvedUrl | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  const port = url.port === "" ? "" : `:${url.port}`;
  return {
    origin: `${url.protocol.toLowerCase()}//${host}${port}`,
    path: url.pathname,
    credentials: url.username !== "" || url.password !== "",
  };
}

/** Whether `url`, resolved, is under `prefix` (an origin and a path that ends with `/`). */
export function isUnderPrefix(url: string, prefix: string): boolean {
  const target = resolveUrl(url);
  const allowed = resolveUrl(prefix);
  if (target === undefined || allowed === undefined || target.credentials) return false;
  if (ENCODED_SEPARATOR.test(target.path)) return false;
  return target.origin === allowed.origin && target.path.startsWith(allowed.path);
}
