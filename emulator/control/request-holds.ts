/** What a released held request does: go on as if it had just arrived, or answer 503 unperformed. */
export type HoldThen = "perform" | "fail";

/** The values of {@link HoldThen}, for schemas. */
export const HOLD_THENS = ["perform", "fail"] as const satisfies readonly HoldThen[];

/** A hold as the control API lists it. */
export interface HoldView {
  holdId: string;
  /** Route key, as the counters spell it, e.g. `POST /devices`. */
  route: string;
  /** How many matching requests pass before the hold starts holding. */
  after: number;
  /** What the held requests do on release. */
  then: HoldThen;
  /** Matching requests that passed so far (at most `after`). */
  passed: number;
  /** Requests waiting now, unanswered. */
  held: number;
}

/** A request a hold holds: what to do once released, and how to say it has been answered. */
export interface HeldRequest {
  outcome: Promise<HoldThen>;
  /** Called once the request has been answered (or its connection dropped): its effect is done. */
  markAnswered(): void;
}

interface Waiter {
  resume(outcome: HoldThen): void;
  answered: Promise<void>;
}

interface Hold {
  readonly holdId: string;
  readonly route: string;
  readonly after: number;
  readonly then: HoldThen;
  passed: number;
  readonly waiting: Waiter[];
}

/**
 * Holds the requests of a route after the Nth until released: the kill points of tests and of the
 * random-operations harness are counted requests, not moments. A request is offered to the holds
 * of its route in the order they were set; each counts it until its `after` is reached, and the
 * first one that is full holds it (later holds do not see it). Released requests are not offered
 * again.
 */
export class RequestHolds {
  private readonly holds = new Map<string, Hold>();
  private lastId = 0;

  /** Sets a hold on `route`; the first `after` matching requests from now on pass. */
  set(route: string, after: number, then: HoldThen): string {
    this.lastId += 1;
    const holdId = String(this.lastId);
    this.holds.set(holdId, { holdId, route, after, then, passed: 0, waiting: [] });
    return holdId;
  }

  /** Every hold still set, oldest first. */
  list(): HoldView[] {
    return [...this.holds.values()].map(({ holdId, route, after, then, passed, waiting }) => ({
      holdId,
      route,
      after,
      then,
      passed,
      held: waiting.length,
    }));
  }

  /** Offers one request of `route` to the holds: `undefined` when it passes, else the held request. */
  admit(route: string): HeldRequest | undefined {
    for (const hold of this.holds.values()) {
      if (hold.route !== route) continue;
      if (hold.passed < hold.after) {
        hold.passed += 1;
        continue;
      }
      let resume!: (outcome: HoldThen) => void;
      let markAnswered!: () => void;
      const outcome = new Promise<HoldThen>((resolve) => (resume = resolve));
      const answered = new Promise<void>((resolve) => (markAnswered = resolve));
      hold.waiting.push({ resume, answered });
      return { outcome, markAnswered };
    }
    return undefined;
  }

  /**
   * Releases one hold's waiting requests as it says (or as `override` says) and removes it. Returns,
   * per released request, a promise that it has been answered, or `undefined` for an unknown hold.
   */
  release(holdId: string, override?: HoldThen): Promise<void>[] | undefined {
    const hold = this.holds.get(holdId);
    if (!hold) return undefined;
    this.holds.delete(holdId);
    for (const waiter of hold.waiting) waiter.resume(override ?? hold.then);
    return hold.waiting.map((waiter) => waiter.answered);
  }

  /** Releases every hold (each as it says, or all as `override` says), like {@link release}. */
  releaseAll(override?: HoldThen): Promise<void>[] {
    return [...this.holds.keys()].flatMap((holdId) => this.release(holdId, override) ?? []);
  }
}
