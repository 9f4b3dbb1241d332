/**
 * The pace of one application's requests: a refused request slows the client, not the request.
 *
 * The platform's per-second limit belongs to the application, and every client of it (every stack of
 * a team, every provider process of a deployment) shares it; none can know its share in advance. As
 * TCP's senders and the AWS SDKs' adaptive retry mode do, the pacer finds it from the platform's
 * answers: a multiplicative decrease on each refusal and a CUBIC increase after it (the curve of
 * TCP CUBIC and of the AWS SDKs' adaptive mode), which independent senders converge under with no
 * coordinator.
 *
 * - A client starts at {@link INITIAL_RATE} requests a second and, until its first refusal, each
 *   request that passes adds {@link SLOW_START_GAIN} to the rate (TCP's slow start: the rate
 *   doubles every second while the platform accepts it). Many stacks started at once thus meet the
 *   limit with a few refusals each rather than a burst of every request in flight.
 * - A refusal sets the rate to {@link DECREASE_FACTOR} × the rate, or × what passed in the last
 *   second when that is less (what the platform let this client through is its share when many
 *   overshoot together) — once per episode: refusals of requests started before the last decrease
 *   were sent at the old rate and say nothing new.
 * - The refused request waits its `Retry-After` ({@link DEFAULT_PAUSE_MS} without one,
 *   {@link MAX_PAUSE_MS} at most). A `Retry-After` longer than {@link CLIENT_PAUSE_ABOVE_MS} holds
 *   every start of the client until it has passed: the platform says its window is long. One of a
 *   second or less does not: the header counts whole seconds, so "1" says only "within this
 *   second", and holding every request for it idles the client for up to a whole window at every
 *   refusal (in `bench/pace-simulation.ts`, 20 stacks × 500 at 50/s took 1.18 × the limit's floor
 *   so, 1.06 without); the lowered rate already spaces the others.
 * - After a refusal the rate climbs back along a cubic in the time since: fast at first, flat near
 *   the rate at which the refusal came (reached after ∛(rate·(1−β)/C) seconds), then probing above
 *   it slowly, then faster — {@link CUBIC_SCALE} × (t − K)³ requests a second. So a client spends
 *   most of its time just below the limit it found, and many clients together overshoot it seldom.
 * - The rate never goes below {@link MIN_RATE}, nor climbs above twice what passed in the last
 *   second (plus the initial rate): a rate the client does not use says nothing of the platform's
 *   limit.
 */

/** A refusal multiplies the rate by this (β). */
export const DECREASE_FACTOR = 0.9;
/** C of the cubic climb after a refusal, in requests a second per second³. */
export const CUBIC_SCALE = 0.002;
/** The rate a client starts at, requests per second. */
export const INITIAL_RATE = 2;
/** Before the first refusal, each request that passes adds this to the rate. */
export const SLOW_START_GAIN = 1;
/** The slowest pace, in requests per second. */
export const MIN_RATE = 0.5;
/** The wait of a request refused with `rate_limited` and no `Retry-After`. */
export const DEFAULT_PAUSE_MS = 1_000;
/** The longest wait one `Retry-After` imposes (a longer one is an odd header, not a rate). */
export const MAX_PAUSE_MS = 30_000;
/** A `Retry-After` longer than this holds every start of the client, not only the refused request's. */
export const CLIENT_PAUSE_ABOVE_MS = 1_000;
/** What passed in this last span of time bounds the rate. */
const MEASURE_WINDOW_MS = 1_000;

/** The clock and timer of a pacer (tests give a fake one). */
export interface PacerClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: PacerClock = {
  now: () => Date.now(),
  sleep: (ms) => (ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms))),
};

/** A refusal as the pacers of an application share it (see {@link PaceShare}). */
export interface PaceSignal {
  /** When the pacer that met it decreased its rate (epoch milliseconds). */
  readonly at: number;
  /** No request starts before this (epoch milliseconds). */
  readonly pausedUntil: number;
  /** The rate after the decrease, requests per second. */
  readonly rate: number;
}

/** What a pacer tells whoever watches it (a progress line while it waits). */
export interface PaceEvent {
  /** Requests per second the client now keeps to. */
  readonly rate: number;
  /** Epoch milliseconds until which nothing starts. */
  readonly pausedUntil: number;
  /** Refusals this pacer met (its own; not those another process shared). */
  readonly refusals: number;
  /** `refused`: one of this client's requests; `shared`: another client's, told through the share. */
  readonly cause: "refused" | "shared";
}

/** Receives pace events; exceptions it throws are ignored. */
export type PaceListener = (event: PaceEvent) => void;

/**
 * The link between pacers of one application in different processes (the provider processes of a
 * deployment): a refusal one of them met slows the others as if it were theirs.
 */
export interface PaceShare {
  /** Told of each decrease this pacer made. Must not throw. */
  refused(signal: PaceSignal): void;
  /** Asked before each start: refusals the others met since the last call (may be none). */
  othersRefusals(): Promise<readonly PaceSignal[]>;
}

/** The pace of one application's requests from one process. */
export class AdaptivePacer {
  /** Requests per second. */
  private rate = INITIAL_RATE;
  /** Until the first decrease (this client's, or another process's shared). */
  private slowStart = true;
  private pausedUntil = 0;
  private nextStartAt = 0;
  /** Requests started and not yet {@link release}d. */
  private inFlight = 0;
  /** Tickets handed out so far: a ticket is the number of a request's start. */
  private issued = 0;
  /** The first ticket of the current episode: older requests were sent at the rate before it. */
  private episodeStart = 0;
  /** The rate at which the last refusal came: where the cubic flattens. */
  private plateau = INITIAL_RATE;
  /** When the last decrease was (epoch milliseconds). */
  private decreasedAt = 0;
  private refusals = 0;
  /** End times of the requests that passed within the last {@link MEASURE_WINDOW_MS}. */
  private readonly passedAt: number[] = [];
  private readonly listeners = new Set<PaceListener>();

  private readonly clock: PacerClock;
  private readonly share: PaceShare | undefined;
  private readonly maxPauseMs: number;

  /**
   * @param options.clock the clock and timer (tests give a fake one)
   * @param options.share the link to the other processes' pacers of the application
   * @param options.maxPauseMs the longest pause one `Retry-After` imposes (default {@link MAX_PAUSE_MS})
   */
  constructor(options: { clock?: PacerClock; share?: PaceShare; maxPauseMs?: number } = {}) {
    this.clock = options.clock ?? realClock;
    this.share = options.share;
    this.maxPauseMs = options.maxPauseMs ?? MAX_PAUSE_MS;
  }

  /** Adds a listener; returns the function that removes it. */
  listen(listener: PaceListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The rate kept to, requests per second. */
  currentRate(): number {
    return this.rate;
  }

  /**
   * Waits until a request may start and reserves its start; resolves with the request's ticket,
   * which {@link passed} and {@link refused} take back.
   */
  async acquire(): Promise<number> {
    await this.applyShared();
    for (;;) {
      const now = this.clock.now();
      // Before the first refusal a request starts at once while nothing else is in flight: one
      // request after another cannot burst, and need not wait for the rate to climb.
      const spaced = this.slowStart && this.inFlight === 0 ? now : this.nextStartAt;
      const startAt = Math.max(now, this.pausedUntil, spaced);
      if (startAt <= now) {
        this.nextStartAt = Math.max(this.nextStartAt, now) + 1000 / this.rate;
        this.inFlight += 1;
        return this.issued++;
      }
      // A refusal met while waiting may move the start later: look again after the wait.
      await this.clock.sleep(startAt - now);
    }
  }

  /** The request of a ticket {@link acquire} gave ended, however (call once per ticket). */
  release(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
  }

  /** The request of `ticket` passed (any answer but a refusal or a server fault). */
  passed(ticket: number): void {
    const now = this.clock.now();
    this.passedAt.push(now);
    while (this.passedAt.length > 0 && (this.passedAt[0] as number) < now - MEASURE_WINDOW_MS)
      this.passedAt.shift();
    if (ticket < this.episodeStart) return;
    const target = this.slowStart ? this.rate + SLOW_START_GAIN : this.cubic(now);
    // The ceiling bounds a climb only: after a wait little has passed, and that is no reason to slow.
    this.rate = Math.max(this.rate, Math.min(target, this.ceiling()));
  }

  /**
   * The request of `ticket` was refused with `rate_limited`: decrease the rate once per episode,
   * and hold every start of the client when `retryAfterMs` is longer than
   * {@link CLIENT_PAUSE_ABOVE_MS}. Returns the milliseconds the refused request waits before it
   * is sent again: its `Retry-After` (capped; {@link DEFAULT_PAUSE_MS} when undefined), or the
   * client's pause when that ends later.
   */
  refused(ticket: number, retryAfterMs: number | undefined): number {
    const now = this.clock.now();
    this.refusals += 1;
    const wait = Math.min(retryAfterMs ?? DEFAULT_PAUSE_MS, this.maxPauseMs);
    if (wait > CLIENT_PAUSE_ABOVE_MS) this.pausedUntil = Math.max(this.pausedUntil, now + wait);
    if (ticket >= this.episodeStart) {
      // From what the platform let through in the last second when that is less than the rate (the
      // client's share, when many clients overshoot together), else from the rate.
      const passed = this.passedAt.filter((at) => at >= now - MEASURE_WINDOW_MS).length;
      this.decrease(now, Math.min(this.rate, passed * (1000 / MEASURE_WINDOW_MS)));
      this.tellShare({ at: now, pausedUntil: this.pausedUntil, rate: this.rate });
    }
    this.tell("refused");
    return Math.max(wait, this.pausedUntil - now);
  }

  /** Starts an episode: the rate at which the refusal came is the cubic's plateau. */
  private decrease(now: number, refusedAt: number): void {
    this.plateau = Math.max(MIN_RATE, refusedAt);
    this.decreasedAt = now;
    this.rate = Math.max(MIN_RATE, refusedAt * DECREASE_FACTOR);
    this.slowStart = false;
    this.episodeStart = this.issued;
    this.nextStartAt = Math.max(this.nextStartAt, now, this.pausedUntil);
  }

  /** The rate the cubic gives `now`: C·(t − K)³ + plateau, K = ∛(plateau·(1 − β) ÷ C). */
  private cubic(now: number): number {
    const k = Math.cbrt((this.plateau * (1 - DECREASE_FACTOR)) / CUBIC_SCALE);
    const t = (now - this.decreasedAt) / 1000;
    return CUBIC_SCALE * (t - k) ** 3 + this.plateau;
  }

  /** Takes the refusals other processes shared: their pause, and their rate when it is lower. */
  private async applyShared(): Promise<void> {
    if (this.share === undefined) return;
    let signals: readonly PaceSignal[];
    try {
      signals = await this.share.othersRefusals();
    } catch {
      return;
    }
    if (signals.length === 0) return;
    // One pace: the lower rate and the later pause; requests in flight here were sent before this
    // decrease, so their refusals belong to the same episode.
    const now = this.clock.now();
    for (const signal of signals) {
      this.pausedUntil = Math.max(this.pausedUntil, signal.pausedUntil);
      if (this.slowStart || signal.rate < this.rate) {
        this.plateau = signal.rate / DECREASE_FACTOR;
        this.decreasedAt = now;
        this.rate = Math.max(MIN_RATE, signal.rate);
      }
    }
    this.slowStart = false;
    this.episodeStart = this.issued;
    this.nextStartAt = Math.max(this.nextStartAt, this.pausedUntil);
    this.tell("shared");
  }

  /** Twice what passed in the last second, plus the initial rate. */
  private ceiling(): number {
    return INITIAL_RATE + 2 * this.passedAt.length * (1000 / MEASURE_WINDOW_MS);
  }

  private tellShare(signal: PaceSignal): void {
    try {
      this.share?.refused(signal);
    } catch {
      // The others learn of the limit from their own refusals then.
    }
  }

  private tell(cause: PaceEvent["cause"]): void {
    const event: PaceEvent = {
      rate: this.rate,
      pausedUntil: this.pausedUntil,
      refusals: this.refusals,
      cause,
    };
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken listener must not stop the requests.
      }
    }
  }
}
