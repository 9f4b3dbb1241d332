/**
 * What a transport failure's message tells the user to check, by its kind: each names the host and
 * the setting it came from, since "connection refused" alone does not say which address was tried
 * or where it was configured.
 */

/** Where the base URL is set, as each kind of caller sets it. */
const BASE_URL_SETTING = "devplatform:baseUrl (DEVPLATFORM_BASE_URL; the client's baseUrl option)";

/**
 * What to check after a transport failure, by its code (the `(CODE)` that ends `reason`, see
 * transport.ts): each names the host and where it was set. None for a closed client (a bug).
 */
export function transportAdvice(reason: string | undefined, baseUrl: string | undefined): string | undefined {
  const code = /\(([A-Z_]+)\)$/.exec(reason ?? "")?.[1];
  const host = hostOf(baseUrl);
  switch (code) {
    case "UND_ERR_CLOSED":
    case "UND_ERR_DESTROYED":
    case "UND_ERR_INVALID_ARG":
      return undefined;
    case "ENOTFOUND":
      return (
        `the host ${host} does not resolve: check ${BASE_URL_SETTING} for a typo, and this machine's ` +
        "DNS; not retried, since a name the DNS says does not exist does not start to within seconds"
      );
    case "EAI_AGAIN":
      return `the DNS lookup of ${host} failed for now: check this machine's DNS, and ${BASE_URL_SETTING}`;
    case "ECONNREFUSED":
      return (
        `nothing accepts connections at ${host}: check the host and port in ${BASE_URL_SETTING}, and ` +
        "that the platform (or the emulator) runs there"
      );
    default:
      return (
        `no answer from ${host}: check ${BASE_URL_SETTING}, and the network path (a proxy, a ` +
        "firewall) from this machine to the platform"
      );
  }
}

/** `host:port` of a base URL, for messages; the URL itself when it does not parse. */
function hostOf(baseUrl: string | undefined): string {
  if (baseUrl === undefined) return "the platform's host";
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}
