/**
 * The pace of one application's requests: a refusal slows the client, not the request.
 *
 * The platform's per-second limit belongs to the application, and every client of it (every stack of
 * a team, every provider process of a deployment) shares it; none can know its share in advance. As
 * TCP's senders and the AWS SDKs' adaptive retry mode do, the pacer finds it from the platform's
 * answers: a multiplicative decrease on each refusal and a CUBIC increase after it, which
 * independent senders converge under with no coordinator.
 *
 * - Until the first refusal known on the machine the pace costs no file: each client keeps its slow
 *   start in memory (2 requests a second, one more per pass, at most twice what passed in the last
 *   second plus 2, a request starting at once while nothing else is in flight; or, when an earlier
 *   command on the machine proved 64 a second or more, unspaced from the start: proven-rate.ts),
 *   and a client sharing a pace (pace-store.ts) looks before each start whether another met a
 *   refusal — the store's `changed`, one `stat` of the pace file, a read only when it changed — and
 *   joins the pace at once when one did, or at its own first refusal. Only then does each start,
 *   pass and refusal change the shared pace under its lock. (Per request a lock, a read and a rename
 *   cost 3,000 adds sharing a pace 13 s of 20 s; a look every 100 ms let the others send on into a
 *   full window: 130 adds for 120 in the e2e's 4 stacks at 10/s, against 126.)
 * - A refusal sets the rate to {@link DECREASE_FACTOR} × the rate, or × what passed in the last
 *   second when that is less (what the platform let this client through is its share when many
 *   overshoot together) — once per episode: refusals of requests started before the last decrease
 *   were sent at the old rate and say nothing new. Nor do refusals that come within
 *   {@link FULL_WINDOW_MS} of it before any request sent since has passed: a limit counted in
 *   windows refuses every request until the full window ends, whatever the rate (TCP NewReno's
 *   one reduction per window of data). Until then the client sends one request at a time: more
 *   would only be refused with it. When one of them passes (the full window has ended), what passed
 *   in the second before the episode's latest refusal, when less, becomes the rate the cubic
 *   flattens at: counted nearer the full window's end, it holds less of the window before.
 * - The refused request waits its `Retry-After` ({@link DEFAULT_PAUSE_MS} without one,
 *   {@link MAX_PAUSE_MS} at most). A `Retry-After` longer than {@link CLIENT_PAUSE_ABOVE_MS} holds
 *   every start of the client until it has passed: the platform says its window is long. One of a
 *   second or less does not: the header counts whole seconds, so "1" says only "within this
 *   second", and holding every request for it idles the client for up to a whole window at every
 *   refusal (in `bench/pace-simulation.ts`, 20 stacks × 500 at 50/s took 1.18 × the limit's floor
 *   so, 1.06 without); the lowered rate already spaces the others.
 * - After a refusal the rate climbs back along a cubic, and never goes below a floor (pace-curve.ts).
 */

import {
  CLIENT_PAUSE_ABOVE_MS,
  DEFAULT_PAUSE_MS,
  FREE_START_RATE,
  LATE_START_KEEPS_PACE_MS,
  MAX_PAUSE_MS,
  MEASURE_WINDOW_MS,
  SLOW_START_GAIN,
  initialPaceState,
  type PaceState,
  type PaceStore,
} from "./pace-state";
import { lookOffsetMs, realClock, type PaceEvent, type PaceListener, type PacerClock } from "./pace-clock";
import {
  ceiling,
  countPassed,
  cubic,
  decrease,
  joinEpisode,
  mergedTimes,
  settlePlateau,
  startDelay,
  windowMayBeFull,
} from "./pace-curve";
import { ProvenRate } from "./proven-rate";

export type { PaceEvent, PaceListener, PacerClock } from "./pace-clock";

/** The ticket of a request started before the pace engaged: older than every episode. */
const FREE_TICKET = -1;
/** Ticket n of a slow start kept in memory (with a store) is `MEMORY_TICKETS − n` (see ticketOf). */
const MEMORY_TICKETS = -2;

/** The pace of one application's requests from one client (alone, or sharing a {@link PaceStore}). */
export class AdaptivePacer {
  /** The state as this client last saw it (its own, without a store). */
  private state = initialPaceState();
  /** Requests of this client started and not yet {@link release}d (the store counts everyone's). */
  private inFlight = 0;
  /** Refusals this client met. */
  private refusals = 0;
  /** The last decrease this client made (machine-clock milliseconds): another one seen is another's. */
  private ownDecreaseAt = 0;
  private readonly listeners = new Set<PaceListener>();
  /**
   * A refusal is known (this client's, or another's sharing the store): the store's pace bounds
   * starts. Until then {@link state} is this client's own slow start, kept in memory.
   */
  private engaged = false;
  /** With a store, this client's waiting requests look at it one at a time (see acquire). */
  private queue: Promise<unknown> = Promise.resolve();
  /** What the machine's clients proved before any refusal, recalled and remembered (proven-rate.ts). */
  private readonly proven: ProvenRate;

  private readonly clock: PacerClock;
  private readonly store: PaceStore | undefined;
  private readonly maxPauseMs: number;
  /** No pace at all (the bench's `pacing off`): every start at once, a refusal waits alone. */
  private readonly off: boolean;

  /**
   * @param options.clock the clock and timer (tests give a fake one)
   * @param options.store where the pace is kept when other clients share it
   * @param options.maxPauseMs the longest pause one `Retry-After` imposes (default {@link MAX_PAUSE_MS})
   * @param options.off no pace at all (for measuring what it costs)
   */
  constructor(options: { clock?: PacerClock; store?: PaceStore; maxPauseMs?: number; off?: boolean } = {}) {
    this.off = options.off ?? false;
    this.clock = options.clock ?? realClock;
    this.store = options.store;
    this.maxPauseMs = options.maxPauseMs ?? MAX_PAUSE_MS;
    this.proven = new ProvenRate(this.store);
  }

  /** Adds a listener; returns the function that removes it. */
  listen(listener: PaceListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The rate kept to, requests per second. */
  currentRate(): number {
    return this.state.rate;
  }

  /**
   * Waits until a request may start and reserves its start; resolves with the request's ticket,
   * which {@link passed} and {@link refused} take back.
   */
  async acquire(): Promise<number> {
    if (this.off) return FREE_TICKET;
    // Nothing of this client in flight, or no shared pace engaged: no file to wait for, and the
    // slow start may let it start at once (nextStart), which a place behind the others would defeat.
    if (this.store === undefined || !this.engaged || this.inFlight === 0) return this.nextStart();
    // Each look at an engaged shared store is a change of a file under a lock: one waiting request
    // of this client looks at a time, not every one at every start.
    const turn = this.queue.then(() => this.nextStart());
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async nextStart(): Promise<number> {
    for (;;) {
      this.lookForRefusal();
      if (!this.engaged) this.state.rate = Math.max(this.state.rate, this.proven.recallOnce());
      const now = this.clock.now();
      // A look at a shared pace that finds no turn due waits without its lock. Every client waiting
      // comes back when the turn is due, each a little apart: the first takes it under the lock,
      // and the others find it taken by a look of their own, not by a wait for the lock each (20
      // processes at 50 a second otherwise spent much of their time blocked on it).
      const seen = this.peek();
      if (seen !== undefined) {
        const waitMs = startDelay(seen, now);
        if (waitMs > 0) {
          await this.clock.sleep(waitMs + lookOffsetMs(this.clock.random));
          continue;
        }
      }
      const start = this.change((state): { ticket: number } | { waitMs: number } => {
        const alone = this.store === undefined || this.engaged;
        const waitMs = this.unspaced(state) ? 0 : startDelay(state, now, alone);
        if (waitMs > 0) return { waitMs };
        // With a shared pace, a start a little late keeps the pace's times: clients sharing it
        // look for a turn a few milliseconds apart by design (above), and their timers fire late
        // by a millisecond or so. One later than that (nothing wanted to start) starts the times
        // again from now; so does every late start of a pace a client keeps alone, as before.
        const keep = this.store === undefined ? 0 : LATE_START_KEEPS_PACE_MS;
        const late = now - state.nextStartAt > keep;
        state.nextStartAt = (late ? now : state.nextStartAt) + 1000 / state.rate;
        state.inFlight += 1;
        return { ticket: state.issued++ };
      });
      if ("ticket" in start) {
        this.inFlight += 1;
        // A start of the slow start kept in memory: a ticket of its own numbering (see ticketOf).
        return this.store !== undefined && !this.engaged ? MEMORY_TICKETS - start.ticket : start.ticket;
      }
      // A refusal met while waiting may move the start later: look again after the wait.
      await this.clock.sleep(start.waitMs);
    }
  }

  /** Before any refusal is known, a slow start at {@link FREE_START_RATE} spaces no start (proven-rate.ts). */
  private unspaced(state: PaceState): boolean {
    return !this.engaged && state.slowStart && state.rate >= FREE_START_RATE;
  }

  /** The shared pace as it stands, read without its lock; undefined without a store that can. */
  private peek(): PaceState | undefined {
    if (!this.engaged) return undefined;
    try {
      return this.store?.peek?.();
    } catch {
      return undefined;
    }
  }

  /**
   * Before the pace engaged: whether another client sharing the store met a refusal, looked at
   * before every start (the store's `changed`: a `stat` of its file; a read only when it changed).
   * A look less often lets this client send on into the platform's full window meanwhile.
   */
  private lookForRefusal(): void {
    if (this.engaged || this.store?.changed === undefined) return;
    let seen: PaceState | undefined;
    try {
      seen = this.store.changed();
    } catch {
      return;
    }
    if (seen === undefined || seen.slowStart) return;
    // Nothing of this client's to add to the pace: the look is its view, with no change.
    if (this.inFlight === 0 && this.state.passedAt.length === 0) {
      this.engaged = true;
      this.state = seen;
      return;
    }
    this.engage(() => undefined);
  }

  /**
   * The shared pace takes over from the slow start kept in memory: this client's requests in flight and what passed
   * in its last second join the shared pace's, and `change` runs on it. (Another's decrease seen in it is told by {@link change}.)
   */
  private engage<T>(change: (state: PaceState) => T): T {
    this.engaged = true;
    const { inFlight } = this;
    const local = this.state;
    return this.change((state) => {
      // Without a store (or when it cannot be had) the pace is this client's own, already counted.
      if (state === local) return change(state);
      state.inFlight += inFlight;
      // Nobody paces by the store yet: this client's slow start is the rate its requests were sent at.
      if (state.slowStart) state.rate = Math.max(state.rate, local.rate);
      const own = local.passedAt;
      if (!state.slowStart) joinEpisode(state, own);
      state.passedAt = mergedTimes(state.passedAt, own);
      return change(state);
    });
  }

  /** The request of a ticket {@link acquire} gave ended, however (call once per ticket). */
  release(): void {
    if (this.off) return;
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.change((state) => void (state.inFlight = Math.max(0, state.inFlight - 1)));
  }

  /** The request of `ticket` passed (any answer but a refusal or a server fault). */
  passed(ticket: number): void {
    if (this.off) return;
    const now = this.clock.now();
    this.change((state) => {
      countPassed(state, now);
      if (this.ticketOf(ticket) < state.episodeStart) return;
      if (!state.episodeConfirmed) settlePlateau(state);
      state.episodeConfirmed = true;
      const target = state.slowStart ? state.rate + SLOW_START_GAIN : cubic(state, now);
      // The ceiling bounds a climb only: after a wait little has passed, and that is no reason to slow.
      state.rate = Math.max(state.rate, Math.min(target, ceiling(state)));
    });
    if (!this.engaged) this.proven.passed(this.state, now);
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
    const wait = this.unpacedWait(retryAfterMs);
    if (this.off) return wait;
    const refuse = (state: PaceState): number => {
      if (wait > CLIENT_PAUSE_ABOVE_MS) state.pausedUntil = Math.max(state.pausedUntil, now + wait);
      const passed =
        state.passedAt.filter((at) => at >= now - MEASURE_WINDOW_MS).length * (1000 / MEASURE_WINDOW_MS);
      // The pace's first refusal, met by a request of the slow start (kept in memory, its rate
      // brought along by engage): older than every episode, and still the first decrease.
      const first = state.slowStart && this.ticketOf(ticket) === FREE_TICKET;
      if ((first || this.ticketOf(ticket) >= state.episodeStart) && !windowMayBeFull(state, now)) {
        // From what the platform let through in the last second when that is less than the rate
        // (the share of the clients keeping this pace, when many overshoot together), else from
        // the rate.
        decrease(state, now, Math.min(state.rate, passed));
        this.ownDecreaseAt = now;
      }
      if (!state.episodeConfirmed) state.refusedWindowPassed = passed;
      return state.pausedUntil;
    };
    const pausedUntil = this.engaged ? this.change(refuse) : this.engage(refuse);
    if (this.ownDecreaseAt === now) this.proven.forget();
    this.tell("refused");
    return Math.max(wait, pausedUntil - now);
  }

  /**
   * A ticket as the pace now kept knows it: one of the slow start kept in memory is its state's
   * number there, and older than every episode (a free ticket) once the shared pace engaged.
   */
  private ticketOf(ticket: number): number {
    if (ticket > MEMORY_TICKETS) return ticket;
    return this.store !== undefined && !this.engaged ? MEMORY_TICKETS - ticket : FREE_TICKET;
  }

  /** The wait of a refused request keeping to no pace (a token grant): its capped `Retry-After`, or {@link DEFAULT_PAUSE_MS}. */
  unpacedWait(retryAfterMs: number | undefined): number {
    return Math.min(retryAfterMs ?? DEFAULT_PAUSE_MS, this.maxPauseMs);
  }

  /** Runs `change` on the pace: the store's when there is one (else, or when it cannot be had, this client's). */
  private change<T>(change: (state: PaceState) => T): T {
    if (this.store === undefined || !this.engaged) return change(this.state);
    const seenDecrease = this.state.decreasedAt;
    let result: T;
    try {
      result = this.store.transact((state) => {
        const value = change(state);
        this.state = { ...state, passedAt: [...state.passedAt] };
        return value;
      });
    } catch {
      return change(this.state);
    }
    // Another client sharing the pace met the limit: say so, once per decrease.
    const decreasedAt = this.state.decreasedAt;
    if (decreasedAt > seenDecrease && decreasedAt !== this.ownDecreaseAt) this.tell("shared");
    return result;
  }

  private tell(cause: PaceEvent["cause"]): void {
    const event: PaceEvent = {
      rate: this.state.rate,
      pausedUntil: this.state.pausedUntil,
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
