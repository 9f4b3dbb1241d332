import { EmulatorError } from "./http/emulator-error";
import { ErrCode } from "./http/err-codes";

/** One emulator day, in milliseconds: days are UTC days of the emulator's clock. */
export const DAY_MS = 86_400_000;

/** One application's use of the day's quota, as the control API reports it. */
export interface QuotaUse {
  /** Requests counted against the quota this emulator day. */
  used: number;
  /** Requests left today; null when there is no quota (`--daily-quota` not set). */
  remaining: number | null;
  /** Requests refused today because the quota was spent. */
  refused: number;
}

/** `GET /__emulator/quota`. */
export interface QuotaView {
  /** Requests per application per emulator day; null when unlimited. */
  dailyQuota: number | null;
  /** The emulator day (days since the epoch, by the emulator's clock). */
  day: number;
  /** When the next emulator day begins, milliseconds since the epoch (emulator clock). */
  nextDayAt: number;
  /** By applicationId: every application that made a request today or whose use was set. */
  applications: Record<string, QuotaUse>;
}

interface DayUse {
  day: number;
  used: number;
  refused: number;
}

/** The 429 `quota_exhausted` answer: not retried by the SDK; no `Retry-After`, as it renews only tomorrow. */
export function quotaExhausted(limit: number, nextDayAt: number): EmulatorError {
  return new EmulatorError(
    429,
    ErrCode.QuotaExhausted,
    `the daily request quota of ${limit} requests for this application is spent; it renews at ` +
      `${new Date(nextDayAt).toISOString()}`,
  );
}

/**
 * At most N requests per application per emulator day (`--daily-quota`). A request counts when it
 * is admitted: a valid access token and within the per-second rate limit. Token requests, refusals
 * (401, 429) and injected faults do not count. Counting happens even without a quota, so the
 * control API always reports the day's use.
 */
export class DailyQuota {
  private readonly uses = new Map<string, DayUse>();

  private limit: number | undefined;

  /** @param initial requests per application per day (the option); `undefined` means unlimited. */
  constructor(private readonly initial: number | undefined) {
    this.limit = initial;
  }

  /** The quota, or undefined when unlimited. */
  get dailyQuota(): number | undefined {
    return this.limit;
  }

  /** Throws 429 `quota_exhausted` (and counts the refusal) when the application's day is spent. */
  refuseIfSpent(applicationId: string, nowMs: number): void {
    if (this.limit === undefined) return;
    const use = this.today(applicationId, nowMs);
    if (use.used < this.limit) return;
    use.refused += 1;
    throw quotaExhausted(this.limit, nextDayAt(nowMs));
  }

  /** Counts one admitted request. */
  count(applicationId: string, nowMs: number): void {
    this.today(applicationId, nowMs).used += 1;
  }

  /**
   * Sets an application's use today (tests): `used`, or `remaining` (then used = quota − remaining),
   * and optionally the quota itself (null: unlimited).
   */
  set(
    applicationId: string,
    change: { used?: number; remaining?: number; dailyQuota?: number | null },
    nowMs: number,
  ): void {
    if (change.dailyQuota !== undefined) this.limit = change.dailyQuota ?? undefined;
    const use = this.today(applicationId, nowMs);
    if (change.used !== undefined) use.used = change.used;
    if (change.remaining !== undefined) {
      if (this.limit === undefined) throw new RangeError("remaining needs a daily quota");
      use.used = Math.max(0, this.limit - change.remaining);
    }
  }

  /** Today's use of every application seen today. */
  view(nowMs: number): QuotaView {
    const day = dayOf(nowMs);
    const applications: Record<string, QuotaUse> = {};
    for (const [applicationId, use] of this.uses) {
      if (use.day !== day) continue;
      const remaining = this.limit === undefined ? null : Math.max(0, this.limit - use.used);
      applications[applicationId] = { used: use.used, remaining, refused: use.refused };
    }
    return { dailyQuota: this.limit ?? null, day, nextDayAt: nextDayAt(nowMs), applications };
  }

  /** Forgets every day's use, and a quota the control API set gives way to the option's again. */
  reset(): void {
    this.uses.clear();
    this.limit = this.initial;
  }

  private today(applicationId: string, nowMs: number): DayUse {
    const day = dayOf(nowMs);
    let use = this.uses.get(applicationId);
    if (!use || use.day !== day) {
      use = { day, used: 0, refused: 0 };
      this.uses.set(applicationId, use);
    }
    return use;
  }
}

function dayOf(nowMs: number): number {
  return Math.floor(nowMs / DAY_MS);
}

function nextDayAt(nowMs: number): number {
  return (dayOf(nowMs) + 1) * DAY_MS;
}
