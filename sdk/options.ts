/** Options of {@link DevicePlatformClient} and their validation at construction time. */
import type { Dispatcher } from "undici";
import type { RequestEventListener } from "./events";
import type { PaceListener } from "./pacer";
import type { PaceStore } from "./pace-state";
import type { QuotaHaltShare } from "./quota-halt";
import { baseUrlProblem } from "./base-url";
import { DEFAULT_RETRY_OPTIONS, type RetryOptions } from "./retry";

/** Options of `new DevicePlatformClient(…)`. */
export interface DevicePlatformClientOptions {
  /** `https://<server_address>`; plain `http://` only for loopback hosts (an emulator). */
  readonly baseUrl: string;
  /** Client ID of the platform application. */
  readonly clientId: string;
  /** Client Secret of the platform application; never logged or put into errors. */
  readonly clientSecret: string;
  /** Version segment of device endpoints (default `v1`). */
  readonly apiVersion?: "v1" | "v1.0";
  /** Timeout for response headers and between body chunks, in milliseconds (default 30000). */
  readonly timeoutMs?: number;
  /**
   * Retries after the first attempt of an operation (default 5), for faults that may repeat
   * (server errors, resets, timeouts). Not for 429 `rate_limited`: see `rateLimitWaitMs`.
   */
  readonly maxRetries?: number;
  /**
   * How long one operation may go on being refused with 429 `rate_limited` before it fails, in
   * milliseconds (default 600000: ten minutes; 0 fails at the first refusal). A refusal slows every
   * request of the client (see pacer.ts), so an operation may be refused several times while the
   * client finds the application's share; that is bounded by time, not by `maxRetries`.
   */
  readonly rateLimitWaitMs?: number;
  /**
   * Where the pace is kept when other clients of the same application share it (the provider
   * processes of one machine): together they keep to one rate. See {@link PaceStore}.
   */
  readonly paceStore?: PaceStore;
  /** Told when the client slows down or pauses for the platform's rate limit (a progress line). */
  readonly onPace?: PaceListener;
  /**
   * False: no pace at all — every request starts as the concurrency allows, and a refused one waits
   * its `Retry-After` alone (default true). For measuring what the pacing costs (the bench's
   * `pacing off`), not for use: against a limit, the client then meets it at every request.
   */
  readonly pacing?: boolean;
  /** Requests in flight at once, across all callers of this client (default 8). */
  readonly concurrency?: number;
  /** Request starts per second; unlimited by default. */
  readonly requestsPerSecond?: number;
  /** Receives one event per HTTP attempt. */
  readonly onEvent?: RequestEventListener;
  /** Backoff tuning; see {@link RetryOptions}. */
  readonly retry?: Partial<Omit<RetryOptions, "maxRetries">>;
  /** Send ids in request bodies as JSON numbers (exact, via `JSON.rawJSON`) instead of strings of digits. */
  readonly sendIdsAsNumbers?: boolean;
  /**
   * After the platform refuses a request because the daily quota is spent, fail every later
   * operation of this client at once with a `QuotaHaltedError` (a `QuotaExhaustedError`), without
   * sending it (default false). For a client that lives one job, such as a deployment: the quota
   * renews only the next day, and every request sent meanwhile would be refused too.
   */
  readonly haltWhenQuotaExhausted?: boolean;
  /**
   * With `haltWhenQuotaExhausted`, the link to the other clients of the same job (several processes
   * of one deployment, say): this client tells it of its refusal and asks it before each request
   * whether another client was refused. See {@link QuotaHaltShare}.
   */
  readonly quotaHaltShare?: QuotaHaltShare;
  /** An undici dispatcher to send through instead of the client's own pool (tests use `MockAgent`). */
  readonly dispatcher?: Dispatcher;
}

/** Options after defaults and checks. */
export interface ResolvedOptions {
  readonly baseUrl: string;
  readonly origin: string;
  readonly basePath: string;
  readonly clientId: string;
  readonly apiVersion: "v1" | "v1.0";
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly requestsPerSecond?: number;
  readonly retry: RetryOptions;
  readonly sendIdsAsNumbers: boolean;
  readonly haltWhenQuotaExhausted: boolean;
  readonly quotaHaltShare: QuotaHaltShare | undefined;
  readonly rateLimitWaitMs: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_CONCURRENCY = 8;
/** Ten minutes: a team's stacks sharing an application find their shares well within it. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 600_000;

/** Applies defaults and refuses unusable options with a `TypeError` that says what to change. */
export function resolveOptions(options: DevicePlatformClientOptions): ResolvedOptions {
  const url = parseBaseUrl(options.baseUrl);
  requireText("clientId", options.clientId);
  requireText("clientSecret", options.clientSecret);
  const apiVersion = options.apiVersion ?? "v1";
  if (apiVersion !== "v1" && apiVersion !== "v1.0") throw new TypeError(`apiVersion must be "v1" or "v1.0"`);
  const basePath = url.pathname.replace(/\/+$/, "");
  return {
    baseUrl: url.origin + basePath,
    origin: url.origin,
    basePath,
    clientId: options.clientId,
    apiVersion,
    timeoutMs: positive("timeoutMs", options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    concurrency: positiveInteger("concurrency", options.concurrency ?? DEFAULT_CONCURRENCY),
    requestsPerSecond:
      options.requestsPerSecond === undefined
        ? undefined
        : positive("requestsPerSecond", options.requestsPerSecond),
    retry: {
      ...DEFAULT_RETRY_OPTIONS,
      ...options.retry,
      maxRetries: nonNegativeInteger("maxRetries", options.maxRetries ?? DEFAULT_RETRY_OPTIONS.maxRetries),
    },
    sendIdsAsNumbers: options.sendIdsAsNumbers ?? false,
    haltWhenQuotaExhausted: options.haltWhenQuotaExhausted ?? false,
    quotaHaltShare: options.quotaHaltShare,
    rateLimitWaitMs: nonNegative("rateLimitWaitMs", options.rateLimitWaitMs ?? DEFAULT_RATE_LIMIT_WAIT_MS),
  };
}

/** The base URL as a URL, or a `TypeError` naming the rule it breaks (see base-url.ts). */
function parseBaseUrl(baseUrl: string): URL {
  const problem = typeof baseUrl === "string" ? baseUrlProblem(baseUrl) : "must be a string";
  if (problem !== undefined) throw new TypeError(`baseUrl ${problem}`);
  return new URL(baseUrl);
}

function requireText(name: string, value: unknown): void {
  if (typeof value !== "string" || value.trim() === "")
    throw new TypeError(`${name} must be a non-empty string`);
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`${name} must be a positive number`);
  return value;
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new TypeError(`${name} must be a non-negative number`);
  return value;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`${name} must be a positive integer`);
  return value;
}

function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new TypeError(`${name} must be a non-negative integer`);
  return value;
}
