/** Options of {@link createApp} (and, with `port`/`host`, of `startEmulator`). */
export interface EmulatorOptions {
  /** OAuth client id the emulator accepts; default `demo-client`. */
  clientId?: string;
  /** OAuth client secret; default `demo-secret`. */
  clientSecret?: string;
  /** Serve the `/__emulator/` control API; default false for createApp and the CLI. */
  control?: boolean;
  /** Write deviceId, applicationId and taskId as exact JSON numbers instead of strings of digits. */
  numericIds?: boolean;
  /** Access-token lifetime, seconds; default 3600. */
  tokenTtlSeconds?: number;
  /** Refresh-token lifetime, seconds; default 2592000 (30 days). */
  refreshTokenTtlSeconds?: number;
  /** Requests per second per application; default unlimited. */
  rateLimit?: number;
  /**
   * Requests per application per emulator day (UTC days of the emulator's clock); beyond it 429
   * `quota_exhausted`. Default unlimited.
   */
  dailyQuota?: number;
  /** How long after creation a configuration task applies, milliseconds; default 50. */
  taskDelayMs?: number;
  /** JSON state file: loaded at start, written atomically after changes and on close. */
  statePath?: string;
  /** Debounce of state-file writes, milliseconds; default 100. */
  stateWriteDelayMs?: number;
  /**
   * Largest page the searches serve, 1–100; default 100. A smaller value pages smaller than asked
   * (the page answers with the size it used), as a platform may.
   */
  maxPageSize?: number;
  /** Receiver of the platform's webhooks (absolute http(s) URL); with `webhookSecret`, or neither. */
  webhookUrl?: string;
  /** Secret the webhook signatures are computed with. */
  webhookSecret?: string;
  /** Attempts per webhook delivery before it is given up, 1–20; default 5. */
  webhookMaxAttempts?: number;
  /** Backoff before the first retry of a delivery, doubled for each further retry, ms; default 1000. */
  webhookRetryDelayMs?: number;
  /** How long one delivery attempt may take before it counts as failed, ms; default 10000. */
  webhookTimeoutMs?: number;
}

/** Webhook settings, resolved; absent when webhooks are off. */
export interface WebhookSettings {
  url: string;
  secret: string;
  maxAttempts: number;
  retryDelayMs: number;
  timeoutMs: number;
}

/** {@link EmulatorOptions} with every default filled in. */
export interface ResolvedOptions {
  clientId: string;
  clientSecret: string;
  control: boolean;
  numericIds: boolean;
  tokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  rateLimit: number | undefined;
  dailyQuota: number | undefined;
  taskDelayMs: number;
  statePath: string | undefined;
  stateWriteDelayMs: number;
  maxPageSize: number;
  webhooks: WebhookSettings | undefined;
}

/** Default credentials, also printed by the CLI's help. */
export const DEFAULT_CLIENT_ID = "demo-client";
/** Default client secret. */
export const DEFAULT_CLIENT_SECRET = "demo-secret";
/** Default access-token lifetime (the platform's documentation gives one hour). */
export const DEFAULT_TOKEN_TTL_SECONDS = 3600;
/** Default refresh-token lifetime (30 days). */
export const DEFAULT_REFRESH_TOKEN_TTL_SECONDS = 2_592_000;
/** Default and largest page of the searches (pageSize above it is a 400). */
export const DEFAULT_MAX_PAGE_SIZE = 100;
/** Default task delay. */
export const DEFAULT_TASK_DELAY_MS = 50;

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a non-negative number`);
  return value;
}

function pageSizeLimit(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_PAGE_SIZE;
  if (!Number.isInteger(value) || value < 1 || value > DEFAULT_MAX_PAGE_SIZE)
    throw new RangeError(`maxPageSize must be an integer from 1 to ${DEFAULT_MAX_PAGE_SIZE}`);
  return value;
}

/** Default attempts per webhook delivery. */
export const DEFAULT_WEBHOOK_MAX_ATTEMPTS = 5;
/** Default backoff before a webhook delivery's first retry, ms. */
export const DEFAULT_WEBHOOK_RETRY_DELAY_MS = 1000;
/** Default timeout of one webhook delivery attempt, ms. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

function webhookSettings(options: EmulatorOptions): WebhookSettings | undefined {
  const { webhookUrl: url, webhookSecret: secret } = options;
  if (url === undefined && secret === undefined) return undefined;
  if (url === undefined || secret === undefined || secret === "")
    throw new RangeError("webhookUrl and webhookSecret (non-empty) go together");
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new RangeError(`webhookUrl must be an absolute http(s) URL, got "${url}"`);
  }
  if (protocol !== "http:" && protocol !== "https:")
    throw new RangeError(`webhookUrl must be an absolute http(s) URL, got "${url}"`);
  const maxAttempts = options.webhookMaxAttempts ?? DEFAULT_WEBHOOK_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 20)
    throw new RangeError("webhookMaxAttempts must be an integer from 1 to 20");
  return {
    url,
    secret,
    maxAttempts,
    retryDelayMs: positive(
      "webhookRetryDelayMs",
      options.webhookRetryDelayMs,
      DEFAULT_WEBHOOK_RETRY_DELAY_MS,
    ),
    timeoutMs: positive("webhookTimeoutMs", options.webhookTimeoutMs, DEFAULT_WEBHOOK_TIMEOUT_MS),
  };
}

function dailyQuotaOf(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0)
    throw new RangeError("dailyQuota must be a non-negative integer");
  return value;
}

/** Fills in defaults and rejects impossible values. */
export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  return {
    clientId: options.clientId ?? DEFAULT_CLIENT_ID,
    clientSecret: options.clientSecret ?? DEFAULT_CLIENT_SECRET,
    control: options.control ?? false,
    numericIds: options.numericIds ?? false,
    tokenTtlSeconds: positive("tokenTtlSeconds", options.tokenTtlSeconds, DEFAULT_TOKEN_TTL_SECONDS),
    refreshTokenTtlSeconds: positive(
      "refreshTokenTtlSeconds",
      options.refreshTokenTtlSeconds,
      DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
    ),
    rateLimit: options.rateLimit ? positive("rateLimit", options.rateLimit, 0) : undefined,
    dailyQuota: dailyQuotaOf(options.dailyQuota),
    taskDelayMs: positive("taskDelayMs", options.taskDelayMs, DEFAULT_TASK_DELAY_MS),
    statePath: options.statePath,
    stateWriteDelayMs: positive("stateWriteDelayMs", options.stateWriteDelayMs, 100),
    maxPageSize: pageSizeLimit(options.maxPageSize),
    webhooks: webhookSettings(options),
  };
}
