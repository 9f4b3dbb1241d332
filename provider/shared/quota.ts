/**
 * A spent daily request quota, as every resource kind meets it: the platform's 429
 * `quota_exhausted` (the SDK's `QuotaExhaustedError`), found also when another error wraps it. The
 * process's client halts on the first one (`haltWhenQuotaExhausted`), and the deployment's other
 * provider processes halt once they read it from the shared record (platform-access/quota-share.ts); a
 * resource stops at once, records what it did, and says so in these words.
 */
import { QuotaExhaustedError, QuotaHaltedError } from "../../sdk/errors";

/** The quota refusal in `error` or its causes, or undefined when it is another failure. */
export function quotaRefusalOf(error: unknown): QuotaExhaustedError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof QuotaExhaustedError) return current;
    current = current.cause;
  }
  return undefined;
}

/** Whether `error` is (or wraps) a refusal for a spent quota: fan-outs stop starting work on it. */
export function isQuotaRefusal(error: unknown): boolean {
  return quotaRefusalOf(error) !== undefined;
}

/**
 * `the plan's daily request quota is spent: the platform refused PUT /… (HTTP 429 quota_exhausted:
 * …, requestId …); nothing more was sent`.
 */
export function quotaSpent(refusal: QuotaExhaustedError): string {
  const said = refusal.errMsg ? `: ${refusal.errMsg}` : "";
  const id = refusal.requestId ? `, requestId ${refusal.requestId}` : "";
  const answer = `HTTP ${refusal.status ?? 429} ${refusal.errCode ?? "quota_exhausted"}${said}${id}`;
  // Halted: the client had halted on an earlier refusal (this process's or, through the shared
  // record, another's of the deployment) and did not send this request.
  const what =
    refusal instanceof QuotaHaltedError
      ? `the platform had refused an earlier request of this deployment (${answer}), so ${refusal.method} ` +
        `${refusal.path} was not sent`
      : `the platform refused ${refusal.method} ${refusal.path} (${answer})`;
  return `the plan's daily request quota is spent: ${what}; nothing more was sent and nothing was retried`;
}

/** `2 requests`. */
export function requestCount(count: number): string {
  return `${count.toLocaleString("en-US")} request${count === 1 ? "" : "s"}`;
}

/**
 * The message of a resource operation a spent quota stopped: `create Device sn=… stopped: the
 * plan's daily request quota is spent: …; left to make: 3 requests (…); run \`pulumi up\` …`.
 * `left` says what the next run of the operation makes, when it is known.
 */
export function quotaStopMessage(operation: string, refusal: QuotaExhaustedError, left?: string): string {
  const remain = left === undefined ? "" : `; left to make: ${left}`;
  return `${operation} stopped: ${quotaSpent(refusal)}${remain}; ${AFTER_RENEWAL}`;
}

/** The advice closing every quota message. */
export const AFTER_RENEWAL =
  "run `pulumi up` again once the quota has renewed (the next day), or with a plan that allows more requests";
