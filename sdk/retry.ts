/**
 * Retry policy: which failures are worth another attempt, and how long to wait before it.
 *
 * Delays use capped exponential backoff with "full jitter" (a uniform draw between 0 and the capped
 * exponential), which spreads out many clients that failed at the same moment. A `Retry-After`
 * header, when present on a 429 or 503, replaces the backoff but is capped so that one odd header
 * cannot park a deployment for an hour.
 */

/** Tuning of retries; every field has a default. */
export interface RetryOptions {
  /** Retries after the first attempt (default 5). */
  readonly maxRetries: number;
  /** First backoff ceiling in milliseconds (default 250). */
  readonly baseDelayMs: number;
  /** Largest backoff ceiling in milliseconds (default 8000). */
  readonly maxDelayMs: number;
  /** Largest wait taken from a `Retry-After` header, in milliseconds (default 30000). */
  readonly retryAfterCapMs: number;
}

export const DEFAULT_RETRY_OPTIONS: RetryOptions = {
  maxRetries: 5,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  retryAfterCapMs: 30_000,
};

/**
 * Full-jitter backoff before retry number `retry` (1 for the first retry): a uniform value in
 * `[0, min(maxDelayMs, baseDelayMs * 2^(retry-1)))`.
 */
export function backoffDelayMs(
  retry: number,
  options: RetryOptions,
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(retry - 1, 0), 30);
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** exponent);
  return Math.floor(random() * ceiling);
}

/** An HTTP date in its one sending form (RFC 9110 IMF-fixdate): `Wed, 01 Jan 2025 00:00:10 GMT`. */
const HTTP_DATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * Parses `Retry-After`: delay-seconds (the platform's form) or an HTTP date. Returns milliseconds,
 * or undefined when the header is absent, unreadable or says nothing to wait for — anything but
 * digits or an IMF-fixdate ("-1", "1, 1", "10 20", which `Date.parse` reads as dates long past),
 * or a date not after now (a clock apart from the platform's): the caller's default wait applies,
 * not none.
 */
export function parseRetryAfterMs(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  if (!HTTP_DATE.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) || date <= now ? undefined : date - now;
}

/** The wait before retry number `retry`: `Retry-After` (capped) when given, backoff otherwise. */
export function retryDelayMs(
  retry: number,
  retryAfterHeader: string | undefined,
  options: RetryOptions,
  random: () => number = Math.random,
): number {
  const retryAfter = parseRetryAfterMs(retryAfterHeader);
  if (retryAfter !== undefined) return Math.min(retryAfter, options.retryAfterCapMs);
  return backoffDelayMs(retry, options, random);
}

/**
 * Whether an operation may simply be sent again. `safe`: reads, PUT, DELETE, searches, PATCH of
 * absolute property values, token requests. `unsafe`: writes that would act twice (add a device,
 * create tasks).
 */
export type Repeatability = "safe" | "unsafe";

/** How an attempt ended, in the terms retry decisions need. */
export type AttemptOutcome =
  | {
      readonly kind: "response";
      /**
       * The HTTP status; for HTTP 200 with `status: "Failed"`, the status the platform's `errCode`
       * stands for (`rate_limited` → 429), or 200 when the errCode is unknown (never retried).
       */
      readonly status: number;
      /**
       * The platform said the daily quota is spent (429 `quota_exhausted`): not performed, but
       * never retried, since it would not clear for hours.
       */
      readonly quotaExhausted?: boolean;
      /**
       * A write answered 2xx whose answer could not be read: handled, so perhaps performed. A safe
       * write is not repeated either (its error says the outcome is unknown; the caller's next run
       * sends it again): a server that answered this once will most likely answer it again.
       */
      readonly unreadable?: boolean;
    }
  | {
      readonly kind: "transport";
      /** `no`: the request provably never reached the server (refused, connect timeout). */
      readonly performed: "no" | "unknown";
      /** Resets and timeouts are transient; argument errors or a closed client are not. */
      readonly transient: boolean;
    };

/**
 * `retry`: send again. `ambiguous`: an unsafe write may have been performed — the caller must check
 * the platform (or give up) before sending again. `stop`: final.
 */
export type RetryDecision = "retry" | "ambiguous" | "stop";

/** "Not performed, try later": the only status after which an unsafe write may simply be repeated. */
const NOT_PERFORMED_STATUSES: ReadonlySet<number> = new Set([429]);
/**
 * Server faults: the request may or may not have been performed. Repeating is harmless for safe
 * operations and must be decided case by case for unsafe ones (DESIGN.md, "Failures and retries").
 */
const MAYBE_PERFORMED_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 504]);

/** Decides what to do after a failed attempt. */
export function decideRetry(outcome: AttemptOutcome, repeatability: Repeatability): RetryDecision {
  if (outcome.kind === "response") {
    if (outcome.unreadable) return repeatability === "safe" ? "stop" : "ambiguous";
    return outcome.quotaExhausted ? "stop" : decideAfterResponse(outcome.status, repeatability);
  }
  if (!outcome.transient) return "stop";
  if (repeatability === "safe" || outcome.performed === "no") return "retry";
  return "ambiguous";
}

function decideAfterResponse(status: number, repeatability: Repeatability): RetryDecision {
  if (NOT_PERFORMED_STATUSES.has(status)) return "retry";
  if (!MAYBE_PERFORMED_STATUSES.has(status)) return "stop";
  return repeatability === "safe" ? "retry" : "ambiguous";
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}
