/**
 * Provider configuration: stack config `devplatform:*` (read in the dynamic provider's `configure()`
 * at run time), falling back to `DEVPLATFORM_*` environment variables. Nothing here is captured in
 * the serialized provider. Every value is checked here, so that a bad one is reported at preview
 * (see `configurationProblem`) naming its key and the rule, never later as the client's TypeError.
 */
import { baseUrlProblem, maskUrl } from "../../sdk/base-url";
import { DEFAULT_OWNER_TAG } from "../shared/owner-marker";

/** Everything the provider needs to reach the platform. */
export interface ProviderSettings {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  apiVersion: "v1" | "v1.0";
  /** Retries of one platform operation after its first attempt (what is safe to repeat). */
  maxRetries: number;
  /**
   * Seconds one platform operation may go on being refused for the platform's rate limit (429
   * `rate_limited`) before it fails; a refusal slows every request of the deployment instead.
   */
  rateLimitWait: number;
  /**
   * The deployment's removal budget: devices removed across every fleet and Device of one `up`
   * (see removal-budget.ts). Unset: each fleet without its own `maxRemovals` stops at half.
   */
  maxRemovals?: number;
  /**
   * Whether a fleet's release (`onRemove: "release"`: the stack forgets devices it leaves on the
   * platform) is charged to {@link maxRemovals} like a delete. Default false: see
   * {@link DEFAULT_COUNT_RELEASES}.
   */
  countReleases: boolean;
  /**
   * The prefix of the owner marker, the tag naming the stack that manages a device
   * (`pulumi-stack:<project>/<stack>`; see provider/shared/owner-marker.ts).
   */
  ownerTag: string;
}

/**
 * Retries per operation unless configured. More than a script's default (the SDK's 5): a
 * deployment that waits out a rough minute of the platform is worth more than one that fails and
 * leaves the stack half-done; with capped backoff 10 retries wait about a minute at most.
 */
export const DEFAULT_MAX_RETRIES = 10;

/**
 * Seconds an operation may wait out the platform's rate limit unless configured: ten minutes, time
 * for a team's stacks that start together to find their shares of the application's rate.
 */
export const DEFAULT_RATE_LIMIT_WAIT = 600;
/**
 * Releases are not charged to the removal budget unless configured: a release writes nothing and
 * loses nothing (each device stays on the platform with its name, tags and configuration, and a
 * resource that declares it again adopts it), and it is the documented way to hand a stack's
 * devices to another stack; the budget guards against deletes, which cannot be taken back.
 */
export const DEFAULT_COUNT_RELEASES = false;

/** The longest wait that may be configured: a day (the quota's period). */
const MAX_RATE_LIMIT_WAIT = 86_400;

interface SettingSource {
  key: keyof ProviderSettings;
  env: string;
}

const SOURCES: SettingSource[] = [
  { key: "baseUrl", env: "DEVPLATFORM_BASE_URL" },
  { key: "clientId", env: "DEVPLATFORM_CLIENT_ID" },
  { key: "clientSecret", env: "DEVPLATFORM_CLIENT_SECRET" },
  { key: "apiVersion", env: "DEVPLATFORM_API_VERSION" },
  { key: "maxRetries", env: "DEVPLATFORM_MAX_RETRIES" },
  { key: "rateLimitWait", env: "DEVPLATFORM_RATE_LIMIT_WAIT" },
  { key: "maxRemovals", env: "DEVPLATFORM_MAX_REMOVALS" },
  { key: "countReleases", env: "DEVPLATFORM_COUNT_RELEASES" },
  { key: "ownerTag", env: "DEVPLATFORM_OWNER_TAG" },
];

const OPTIONAL: readonly (keyof ProviderSettings)[] = [
  "apiVersion",
  "maxRetries",
  "rateLimitWait",
  "maxRemovals",
  "countReleases",
  "ownerTag",
];

/** The owner tag's prefix: printable, no spaces, short enough to leave room for `<project>/<stack>`. */
const OWNER_TAG = /^[!-~]{1,32}$/;

/** A configuration problem the user fixes with `pulumi config set`; it never carries a value. */
export class ProviderConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderConfigurationError";
    // Shown as-is by the dynamic provider host: the message says everything, a stack says nothing.
    this.stack = `${this.name}: ${message}`;
  }
}

/** One setting's problem: which key, and what is wrong (never its value when it is a credential). */
export interface SettingProblem {
  readonly key: keyof ProviderSettings;
  /** Set when the key has no value at all (the message then says where to set it). */
  readonly missing: boolean;
  readonly message: string;
}

/**
 * How a front-end names a key to the user: the dynamic front-end reads stack config
 * `devplatform:baseUrl`; the provider plugin reads its provider's inputs (`baseUrl` of an explicit
 * provider, `devplatform:baseUrl` for the default one).
 */
export type SettingName = (key: keyof ProviderSettings) => string;

/** The stack-config names of the keys (`devplatform:baseUrl`). */
export const configKeyName: SettingName = (key) => `devplatform:${key}`;

/** Every configuration key, in the order problems are reported. */
export const SETTING_KEYS: readonly (keyof ProviderSettings)[] = SOURCES.map((source) => source.key);

/**
 * The one rule set of the provider's configuration, for both front-ends: the settings from
 * `get(key)` (falling back to the environment), or every problem, each naming its key.
 */
export function checkSettings(
  get: (key: keyof ProviderSettings) => string | undefined,
  name: SettingName,
  env: NodeJS.ProcessEnv = process.env,
): { settings: ProviderSettings; problems: [] } | { settings?: undefined; problems: SettingProblem[] } {
  const values: Partial<Record<keyof ProviderSettings, string>> = {};
  const from: Partial<Record<keyof ProviderSettings, string>> = {};
  const problems: SettingProblem[] = [];
  for (const source of SOURCES) {
    const configured = get(source.key);
    const value = configured ?? env[source.env];
    // A value of spaces alone is as good as none (and the client would refuse it without the key's name).
    if (value !== undefined && value.trim() !== "") {
      values[source.key] = value;
      from[source.key] =
        configured === undefined ? `${source.env} (the fallback of ${name(source.key)})` : name(source.key);
    } else if (!OPTIONAL.includes(source.key)) {
      problems.push({ key: source.key, missing: true, message: `${name(source.key)} (or ${source.env})` });
    }
  }
  const invalid = (key: keyof ProviderSettings, message: string) =>
    problems.push({ key, missing: false, message });
  const baseUrl = values.baseUrl;
  const urlProblem = baseUrl === undefined ? undefined : baseUrlProblem(baseUrl);
  if (baseUrl !== undefined && urlProblem !== undefined) {
    // Masked: a URL's user-info or query may hold a credential, which must reach no message.
    invalid("baseUrl", `${from.baseUrl} ${urlProblem}, got "${maskUrl(baseUrl)}"`);
  }
  const apiVersion = values.apiVersion ?? "v1";
  if (apiVersion !== "v1" && apiVersion !== "v1.0") {
    invalid("apiVersion", `${from.apiVersion} must be "v1" or "v1.0", got "${apiVersion}"`);
  }
  const maxRetries = values.maxRetries === undefined ? DEFAULT_MAX_RETRIES : Number(values.maxRetries);
  if (!Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > 100) {
    invalid(
      "maxRetries",
      `${from.maxRetries} must be a whole number from 0 to 100, got "${values.maxRetries ?? ""}"`,
    );
  }
  const rateLimitWait =
    values.rateLimitWait === undefined ? DEFAULT_RATE_LIMIT_WAIT : Number(values.rateLimitWait);
  if (!Number.isInteger(rateLimitWait) || rateLimitWait < 0 || rateLimitWait > MAX_RATE_LIMIT_WAIT) {
    invalid(
      "rateLimitWait",
      `${from.rateLimitWait} must be a whole number of seconds from 0 to ${MAX_RATE_LIMIT_WAIT}, got "${values.rateLimitWait ?? ""}"`,
    );
  }
  const maxRemovals = values.maxRemovals === undefined ? undefined : Number(values.maxRemovals);
  if (maxRemovals !== undefined && (!Number.isInteger(maxRemovals) || maxRemovals < 0)) {
    invalid(
      "maxRemovals",
      `${from.maxRemovals} must be a whole number, 0 or more, got "${values.maxRemovals ?? ""}"`,
    );
  }
  const countReleases =
    values.countReleases === undefined ? DEFAULT_COUNT_RELEASES : values.countReleases.trim() === "true";
  if (values.countReleases !== undefined && !["true", "false"].includes(values.countReleases.trim())) {
    invalid("countReleases", `${from.countReleases} must be true or false, got "${values.countReleases}"`);
  }
  const ownerTag = values.ownerTag ?? DEFAULT_OWNER_TAG;
  if (!OWNER_TAG.test(ownerTag)) {
    invalid(
      "ownerTag",
      `${from.ownerTag} must be 1 to 32 printable ASCII characters without spaces (the prefix of the tag naming ` +
        `the stack that manages a device, default "${DEFAULT_OWNER_TAG}"), got ${JSON.stringify(ownerTag)}`,
    );
  }
  if (problems.length > 0) return { problems };
  return {
    settings: {
      baseUrl: baseUrl as string,
      clientId: values.clientId as string,
      clientSecret: values.clientSecret as string,
      apiVersion: apiVersion as ProviderSettings["apiVersion"],
      maxRetries,
      rateLimitWait,
      ...(maxRemovals === undefined ? {} : { maxRemovals }),
      countReleases,
      ownerTag,
    },
    problems: [],
  };
}

/** The command that sets each required key, as the message of missing keys shows it. */
const SET_COMMANDS: Partial<Record<keyof ProviderSettings, string>> = {
  baseUrl: "`pulumi config set devplatform:baseUrl https://…`",
  clientId: "`pulumi config set devplatform:clientId …`",
  clientSecret: "`pulumi config set --secret devplatform:clientSecret` (it prompts for the secret)",
};

/** The message of missing keys (`problems` all missing), with the command that sets each one. */
export function missingSettingsMessage(problems: readonly SettingProblem[]): string {
  const commands = problems.map((p) => SET_COMMANDS[p.key]).filter((c): c is string => c !== undefined);
  const last = commands.pop();
  const example = commands.length > 0 ? `${commands.join(", ")} and ${last}` : last;
  return (
    `the device platform provider is not configured: set ${problems.map((p) => p.message).join(", ")}; ` +
    `e.g. ${example}`
  );
}

/**
 * Resolves the settings from a config getter (stack config, keys `devplatform:baseUrl`, …) and the
 * environment.
 * @throws ProviderConfigurationError naming the missing keys, or else the first invalid one.
 */
export function resolveSettings(
  getConfig: (key: string) => string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ProviderSettings {
  return resolveNamedSettings((key) => getConfig(configKeyName(key)), configKeyName, env);
}

/**
 * Resolves the settings from `get(key)` (`baseUrl`, …) and the environment, naming keys by `name`.
 * @throws ProviderConfigurationError naming the missing keys, or else the first invalid one.
 */
export function resolveNamedSettings(
  get: (key: keyof ProviderSettings) => string | undefined,
  name: SettingName,
  env: NodeJS.ProcessEnv = process.env,
): ProviderSettings {
  const result = checkSettings(get, name, env);
  if (result.settings) return result.settings;
  const missing = result.problems.filter((problem) => problem.missing);
  if (missing.length > 0) throw new ProviderConfigurationError(missingSettingsMessage(missing));
  throw new ProviderConfigurationError((result.problems[0] as SettingProblem).message);
}
