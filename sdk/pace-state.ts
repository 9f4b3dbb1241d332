/**
 * The numbers of the pacer (pacer.ts) and the state it keeps: plain data, so that a store may keep
 * it where several clients share it (the provider's pace-store.ts, a file per application).
 */

/** A refusal multiplies the rate by this (β). */
export const DECREASE_FACTOR = 0.9;
/** C of the cubic climb after a refusal, in requests a second per second³. */
export const CUBIC_SCALE = 0.002;
/**
 * The rate a pace starts at when a process joins it with nothing in flight after an idle reset,
 * and what the ceiling adds to twice what passed, requests per second.
 */
export const INITIAL_RATE = 2;
/**
 * While a shared pace is in slow start (it started again after an idle reset, with a client still
 * pacing by it) and in the slow start a client keeps in memory before a refusal is known, each
 * request that passes adds this to the rate.
 */
export const SLOW_START_GAIN = 1;
/**
 * A slow start kept in memory (no refusal known yet) spaces its starts until its rate reaches this,
 * requests per second, and none after: it has climbed past every limit the pacer is measured at
 * (bench/pace-simulation.ts: 10–50 a second per application), and a limit above it is met once, by
 * the requests in flight then (the provider's 64 at most), before the pace engages.
 */
export const FREE_START_RATE = 64;
/**
 * How long a rate the machine's clients proved before any refusal (see {@link PaceStore.recall})
 * lets a later client start its slow start there: the commands of one deployment (preview, up,
 * refresh) and a pipeline's stacks run one after another within minutes, and the application's
 * limit is its plan's, which does not change between them. What can change is its share: clients
 * on other machines joining. Starting unspaced then costs what a limit above
 * {@link FREE_START_RATE} costs a fresh client anyway: one refusal per request in flight, then the
 * pace engages. Linux keeps a destination's congestion window this way (tcp_metrics) for an hour;
 * ten minutes holds a deployment's commands and no more.
 */
export const PROVEN_RATE_VALID_MS = 10 * 60_000;
/** A client remembers the rate it proved at most this often (and only when it doubled since). */
export const REMEMBER_EVERY_MS = 1_000;
/** The slowest pace, in requests per second. */
export const MIN_RATE = 0.5;
/** The wait of a request refused with `rate_limited` and no `Retry-After`. */
export const DEFAULT_PAUSE_MS = 1_000;
/** The longest wait one `Retry-After` imposes (a longer one is an odd header, not a rate). */
export const MAX_PAUSE_MS = 30_000;
/** A `Retry-After` longer than this holds every start of the client, not only the refused request's. */
export const CLIENT_PAUSE_ABOVE_MS = 1_000;
/**
 * The most a client sharing a pace looks for a due turn after its time (see
 * the pacer's `lookOffsetMs`): a turn taken this late slips the pace by as much.
 */
export const MAX_LOOK_OFFSET_MS = 3;
/** A request that starts at most this late keeps a shared pace's times, instead of moving them later. */
export const LATE_START_KEEPS_PACE_MS = 5;
/** What passed in this last span of time bounds the rate. */
export const MEASURE_WINDOW_MS = 1_000;
/**
 * For this long after a decrease, until a request sent since has passed, a refusal may say only
 * that the platform's window is still full (a `Retry-After` of a second or less says no more), and
 * the client sends one request at a time.
 */
export const FULL_WINDOW_MS = 1_000;

/**
 * The pace itself, as one client keeps it or as several share it (see {@link PaceStore}): plain
 * data, so that a store can keep it in a file.
 */
export interface PaceState {
  /** Requests per second. */
  rate: number;
  /** Until the pace's first decrease (or since an idle reset): no client is pacing by it. */
  slowStart: boolean;
  /** No request starts before this (machine-clock milliseconds). */
  pausedUntil: number;
  /** The earliest start of the next request (machine-clock milliseconds). */
  nextStartAt: number;
  /** Tickets handed out so far: a ticket is the number of a request's start. */
  issued: number;
  /** The first ticket of the current episode: older requests were sent at the rate before it. */
  episodeStart: number;
  /** A request of the current episode passed: the platform took one sent at the episode's rate. */
  episodeConfirmed: boolean;
  /** The rate at which the last refusal came: where the cubic flattens. */
  plateau: number;
  /** When the last decrease was (machine-clock milliseconds). */
  decreasedAt: number;
  /**
   * What passed in the {@link MEASURE_WINDOW_MS} before the current episode's latest refusal, while
   * no request sent since its decrease has passed: the platform's full window, counted nearer its end
   * than at the episode's first refusal (see the pacer's `passed`).
   */
  refusedWindowPassed: number;
  /** End times of the requests that passed within the last {@link MEASURE_WINDOW_MS}. */
  passedAt: number[];
  /**
   * Requests started and not yet ended, of every client keeping this pace (the machine's store
   * counts them per process and drops those of a process that ended without ending them).
   */
  inFlight: number;
}

/** The state of a pace no request has used yet. */
export function initialPaceState(): PaceState {
  return {
    rate: INITIAL_RATE,
    slowStart: true,
    pausedUntil: 0,
    nextStartAt: 0,
    issued: 0,
    episodeStart: 0,
    episodeConfirmed: true,
    plateau: INITIAL_RATE,
    decreasedAt: 0,
    refusedWindowPassed: 0,
    passedAt: [],
    inFlight: 0,
  };
}

/**
 * Where a pace is kept when several clients share it — the provider processes of one machine that
 * use one application (the provider's pace-store.ts keeps it in a file). Every start, pass and
 * refusal of each of them is one change of the one state, so together they keep to one rate, as one
 * client would, and meet the limit as seldom.
 */
export interface PaceStore {
  /**
   * Runs `change` on the shared state alone (no other user of the store changes it meanwhile) and
   * keeps what it leaves; returns what `change` returns. Throws when the state cannot be had: the
   * pacer then goes on with its own view of it.
   */
  transact<T>(change: (state: PaceState) => T): T;
  /**
   * The state as it stands, read without changing it and without waiting for another client's
   * change (a look that finds no start due needs no more); undefined or a throw when it cannot be
   * read so. Optional: without it every look is a {@link transact}.
   */
  peek?(): PaceState | undefined;
  /**
   * The state, when it changed since this client's last call (undefined when not): what a client
   * not yet pacing looks at to learn of another's refusal. Cheap when nothing changed (the
   * provider's file store: one `stat`). Optional: without it a client joins the pace at its own
   * first refusal only.
   */
  changed?(): PaceState | undefined;
  /**
   * What passed in one second on this machine with no refusal (at least {@link FREE_START_RATE}),
   * as the last client to prove it {@link remember}ed it: undefined when nothing was, when it is
   * older than {@link PROVEN_RATE_VALID_MS}, or when a refusal of the application is known since.
   * Optional: without it every client's slow start starts at {@link INITIAL_RATE}.
   */
  recall?(): number | undefined;
  /** Keeps `rate` (requests a second that passed with no refusal) for {@link recall}. */
  remember?(rate: number): void;
  /** A refusal met: what {@link remember} kept says nothing any more. */
  forget?(): void;
}
