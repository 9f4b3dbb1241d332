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
  };
}
