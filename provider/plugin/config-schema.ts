/**
 * The provider's configuration in the package schema: the stack config `devplatform:*` and the
 * inputs of an explicit provider instance, with the rules `provider/platform-access/settings.ts` enforces
 * (at CheckConfig, naming the key) and its `DEVPLATFORM_*` environment fallbacks.
 */
import {
  DEFAULT_COUNT_RELEASES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_RATE_LIMIT_WAIT,
  type ProviderSettings,
} from "../platform-access/settings";
import { boolean, integer, string, type PropertySpec } from "../core/schema-spec";
import { DEFAULT_OWNER_TAG, MAX_USER_TAGS } from "../shared/owner-marker";

/** Each setting's type and rule. */
export const CONFIG_SCHEMA: Readonly<Record<keyof ProviderSettings, PropertySpec>> = {
  baseUrl: string(
    "`https://<server_address>` of your application: an absolute URL with its scheme; plain `http://` only to a " +
      "loopback host (an emulator); no `user:password@`, query string or fragment. Falls back to " +
      "`DEVPLATFORM_BASE_URL`.",
  ),
  clientId: string("The application's Client ID. Falls back to `DEVPLATFORM_CLIENT_ID`."),
  clientSecret: {
    ...string(
      "The application's Client Secret (`pulumi config set --secret`). Falls back to `DEVPLATFORM_CLIENT_SECRET`, " +
        "which keeps even its ciphertext out of state.",
    ),
    secret: true,
  },
  apiVersion: string("`v1` (default) or `v1.0`. Falls back to `DEVPLATFORM_API_VERSION`."),
  maxRetries: integer(
    `Retries of one platform operation after its first attempt (only what is safe to repeat), 0–100 (default ` +
      `${DEFAULT_MAX_RETRIES}). Not for the platform's rate limit: see \`rateLimitWait\`. Falls back to ` +
      "`DEVPLATFORM_MAX_RETRIES`.",
  ),
  rateLimitWait: integer(
    "Seconds one platform operation may go on being refused for the platform's rate limit (429 `rate_limited`) " +
      `before it fails, 0–86400 (default ${DEFAULT_RATE_LIMIT_WAIT}: ten minutes). A refusal slows every request of ` +
      "the deployment to the application, and the pace climbs back while requests pass; this bounds the wait by " +
      "time, not by `maxRetries`. Falls back to `DEVPLATFORM_RATE_LIMIT_WAIT`.",
  ),
  maxRemovals: integer(
    "The deployment's removal budget: at most this many devices removed in one `up`, across every DeviceFleet and " +
      "Device, on top of each fleet's own `maxRemovals`; an `up` over it fails at preview naming every resource that " +
      "removes, writing nothing. When set, it replaces the default that stops a fleet without `maxRemovals` from " +
      "removing more than half its devices. Falls back to `DEVPLATFORM_MAX_REMOVALS`.",
  ),
  countReleases: boolean(
    'Whether the devices a DeviceFleet with `onRemove: "release"` lets go (they stay on the platform; the stack ' +
      `forgets them) count against \`maxRemovals\`, the removal budget, like deletes (default ${DEFAULT_COUNT_RELEASES}: ` +
      "a release writes and loses nothing). Falls back to `DEVPLATFORM_COUNT_RELEASES`.",
  ),
  ownerTag: string(
    `The prefix of the owner marker, the tag each device this stack adds or adopts carries: \`<prefix><project>/<stack>\`` +
      ` (default \`${DEFAULT_OWNER_TAG}\`; 1–32 printable characters, no spaces). It is one of the platform's 20 tags, ` +
      `so a device declares at most ${MAX_USER_TAGS}. Falls back to \`DEVPLATFORM_OWNER_TAG\`.`,
  ),
};
