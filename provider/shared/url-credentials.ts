/**
 * Credentials in a URL's query string. An RPS profile URL is stored in the stack's state and shown
 * in every preview, diff and pull-request summary in plain text, and the platform hands it to every
 * device that boots: a token there (`?token=…`, a signed URL's `X-Amz-Signature`) is a secret
 * published. `user:pass@` was already refused; this refuses the query's credential parameters by
 * name, saying which rule and which parameter, never the value.
 */

/**
 * Query parameter names that carry a credential: tokens, keys, secrets, passwords, signatures
 * (`sig`, `signature`, `X-Amz-Signature`, `X-Goog-Signature`), session and auth values.
 */
const CREDENTIAL_NAME =
  /(^|[-_.])(token|access[-_]?token|api[-_]?key|apikey|key|secret|client[-_]?secret|password|passwd|pwd|pass|sig|signature|auth|authorization|credential|credentials|session|sessionid|jwt|bearer)$/i;

/** Why `url` carries a credential in its query, or undefined. The reason never holds the value. */
export function queryCredentialProblem(url: URL): string | undefined {
  for (const name of url.searchParams.keys()) {
    const plain = name.replace(/^x-(amz|goog)-/i, "");
    if (CREDENTIAL_NAME.test(plain)) {
      return (
        `must not carry a credential in its query string (parameter "${name}"): the URL is kept in the stack's ` +
        "state and shown in previews in plain text, and handed to every device. Give the RPS server a URL whose " +
        "access is granted another way (a path the server authorises by the device's certificate, say)"
      );
    }
  }
  return undefined;
}
