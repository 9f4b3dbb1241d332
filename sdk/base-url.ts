/**
 * The one rule for a platform base URL, shared by the client (which refuses an unusable URL with a
 * `TypeError`), the Pulumi provider (which reports it at preview, naming its config key) and the
 * `devplatform export` command; and the one way to show a base URL in a message without the
 * credentials a user may have put in it.
 */

/**
 * Tokens and the client secret travel over this connection, so plain HTTP is allowed only where
 * nothing leaves the machine; user-info and query strings are where credentials hide, so neither
 * is allowed. Returns what is wrong, as a predicate for "`<name>` …", or undefined for a usable URL.
 * The text never contains the URL's user-info or query.
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(baseUrl.trim())) {
    return "must be an absolute URL with its scheme, such as https://platform.example.com";
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return "must be an absolute URL such as https://platform.example.com";
  }
  if (url.username || url.password) {
    return "must not contain credentials (user:password@); set the client id and secret on their own";
  }
  if (url.search || url.hash || baseUrl.includes("?") || baseUrl.includes("#")) {
    return "must not contain a query string or fragment";
  }
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:") {
    return isLoopbackHost(url.hostname)
      ? undefined
      : `must use https:// (plain http:// is allowed only for loopback hosts): ${url.host}`;
  }
  return `must use https://, not ${url.protocol}`;
}

/** localhost, 127.0.0.0/8 and ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host === "[::1]" || host === "::1") return true;
  const octets = host.split(".");
  return (
    octets.length === 4 && octets[0] === "127" && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255)
  );
}

/**
 * `url` as it may appear in a message: user-info (`user:password@`) and everything from the query
 * or fragment on replaced by `***`. Works on text that is not a valid URL too, since that is what
 * error messages are about.
 */
export function maskUrl(url: string): string {
  const schemeEnd = url.indexOf("://");
  const authorityStart = schemeEnd === -1 ? 0 : schemeEnd + 3;
  const rest = url.slice(authorityStart);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  const at = authority.lastIndexOf("@");
  const host = at === -1 ? authority : `***@${authority.slice(at + 1)}`;
  const tail = authorityEnd === -1 ? "" : rest.slice(authorityEnd);
  const queryAt = tail.search(/[?#]/);
  const path = queryAt === -1 ? tail : `${tail.slice(0, queryAt + 1)}***`;
  return `${url.slice(0, authorityStart)}${host}${path}`;
}
