/**
 * The two OAuth grants as platform requests: form-encoded POSTs to `/oauth/token` without an
 * Authorization header. Repeating a grant is harmless (it only issues another token), so both are
 * retried like reads.
 */
import type { TokenEndpoint } from "./auth";
import type { RequestExecutor } from "./executor";
import { tokenDetailsSchema } from "./schemas/token";

/**
 * A {@link TokenEndpoint} over `executor`. The client secret lives only in this closure: nothing
 * that can be logged or inspected holds it.
 */
export function createTokenEndpoint(
  executor: RequestExecutor,
  clientId: string,
  clientSecret: string,
): TokenEndpoint {
  const request = (form: Record<string, string>) =>
    executor.execute({
      method: "POST",
      path: "/oauth/token",
      form,
      authenticated: false,
      repeatability: "safe",
      schema: tokenDetailsSchema,
      tokenEndpoint: true,
    });
  return {
    clientCredentials: () =>
      request({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }),
    refresh: (refreshToken) => request({ grant_type: "refresh_token", refresh_token: refreshToken }),
  };
}
