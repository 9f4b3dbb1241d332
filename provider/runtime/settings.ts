/**
 * Provider configuration: stack config `devplatform:*` (read in the dynamic provider's `configure()`
 * at run time), falling back to `DEVPLATFORM_*` environment variables. Nothing here is captured in
 * the serialized provider. Every value is checked here, so that a bad one is reported at preview
 * (see `configurationProblem`) naming its key and the rule, never later as the client's TypeError.
 */
import { baseUrlProblem, maskUrl } from "../../sdk";

/** Everything the provider needs to reach the platform. */
export interface ProviderSettings {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  apiVersion: "v1" | "v1.0";
  /** Retries of one platform operation after its first attempt (what is safe to repeat). */
  maxRetries: number;
}

/**
 * Retries per operation unless configured. More than a script's default (the SDK's 5): a
 * deployment that waits out a rough minute of the platform is worth more than one that fails and
 * leaves the stack half-done; with capped backoff 10 retries wait about a minute at most.
 */
export const DEFAULT_MAX_RETRIES = 10;

interface SettingSource {
  key: keyof ProviderSettings;
  config: string;
  env: string;
}

const SOURCES: SettingSource[] = [
  { key: "baseUrl", config: "devplatform:baseUrl", env: "DEVPLATFORM_BASE_URL" },
  { key: "clientId", config: "devplatform:clientId", env: "DEVPLATFORM_CLIENT_ID" },
  { key: "clientSecret", config: "devplatform:clientSecret", env: "DEVPLATFORM_CLIENT_SECRET" },
  { key: "apiVersion", config: "devplatform:apiVersion", env: "DEVPLATFORM_API_VERSION" },
  { key: "maxRetries", config: "devplatform:maxRetries", env: "DEVPLATFORM_MAX_RETRIES" },
];

const OPTIONAL: readonly (keyof ProviderSettings)[] = ["apiVersion", "maxRetries"];

/** A configuration problem the user fixes with `pulumi config set`; it never carries a value. */
export class ProviderConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderConfigurationError";
    // Shown as-is by the dynamic provider host: the message says everything, a stack says nothing.
    this.stack = `${this.name}: ${message}`;
  }
}

/**
 * Resolves the settings from a config getter (stack config) and the environment.
 * @throws ProviderConfigurationError naming each missing or invalid key.
 */
export function resolveSettings(
  getConfig: (key: string) => string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ProviderSettings {
  const values: Partial<Record<keyof ProviderSettings, string>> = {};
  const from: Partial<Record<keyof ProviderSettings, string>> = {};
  const missing: string[] = [];
  for (const source of SOURCES) {
    const configured = getConfig(source.config);
    const value = configured ?? env[source.env];
    // A value of spaces alone is as good as none (and the client would refuse it without the key's name).
    if (value !== undefined && value.trim() !== "") {
      values[source.key] = value;
      from[source.key] =
        configured === undefined ? `${source.env} (the fallback of ${source.config})` : source.config;
    } else if (!OPTIONAL.includes(source.key)) missing.push(`${source.config} (or ${source.env})`);
  }
  if (missing.length > 0) {
    throw new ProviderConfigurationError(
      `the device platform provider is not configured: set ${missing.join(", ")}; ` +
        "e.g. `pulumi config set devplatform:baseUrl https://…` and `pulumi config set --secret devplatform:clientSecret …`",
    );
  }
  const baseUrl = values.baseUrl as string;
  const urlProblem = baseUrlProblem(baseUrl);
  if (urlProblem !== undefined) {
    // Masked: a URL's user-info or query may hold a credential, which must reach no message.
    throw new ProviderConfigurationError(`${from.baseUrl} ${urlProblem}, got "${maskUrl(baseUrl)}"`);
  }
  const apiVersion = values.apiVersion ?? "v1";
  if (apiVersion !== "v1" && apiVersion !== "v1.0") {
    throw new ProviderConfigurationError(`${from.apiVersion} must be "v1" or "v1.0", got "${apiVersion}"`);
  }
  const maxRetries = values.maxRetries === undefined ? DEFAULT_MAX_RETRIES : Number(values.maxRetries);
  if (!Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > 100) {
    throw new ProviderConfigurationError(
      `${from.maxRetries} must be a whole number from 0 to 100, got "${values.maxRetries ?? ""}"`,
    );
  }
  return {
    baseUrl,
    clientId: values.clientId as string,
    clientSecret: values.clientSecret as string,
    apiVersion,
    maxRetries,
  };
}
