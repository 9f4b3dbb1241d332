/**
 * The pace's arithmetic (pacer.ts says what each step is for): plain functions of a {@link PaceState},
 * the same whether one client keeps it or a store shares it.
 *
 * - After a refusal the rate climbs back along a cubic in the time since: fast at first, flat near
 *   the rate at which the refusal came (reached after ∛(rate·(1−β)/C) seconds), then probing above
 *   it slowly, then faster — {@link CUBIC_SCALE} × (t − K)³ requests a second. So a client spends
 *   most of its time just below the limit it found, and many clients together overshoot it seldom.
 * - The rate never goes below {@link MIN_RATE}, nor climbs above twice what passed in the last
 *   second (plus the initial rate): a rate the client does not use says nothing of the platform's
 *   limit.
 */
import {
  CUBIC_SCALE,
  DECREASE_FACTOR,
  FULL_WINDOW_MS,
  INITIAL_RATE,
  MEASURE_WINDOW_MS,
  MIN_RATE,
  type PaceState,
} from "./pace-state";

/** Starts an episode: the rate at which the refusal came is the cubic's plateau. */
export function decrease(state: PaceState, now: number, refusedAt: number): void {
  state.plateau = Math.max(MIN_RATE, refusedAt);
  state.decreasedAt = now;
  state.rate = Math.max(MIN_RATE, refusedAt * DECREASE_FACTOR);
  state.slowStart = false;
  state.episodeStart = state.issued;
  state.episodeConfirmed = false;
  state.nextStartAt = Math.max(state.nextStartAt, now, state.pausedUntil);
}

/**
 * The first request sent since a decrease passed: the platform's window that refused has ended, and
 * the latest refusal came near its end. What passed in the second before that refusal is that
 * window's count, less of the window before it than the second before the episode's first refusal
 * held (which in a slow start spans two windows: a limit of 10 read as 11–13); when it is less, it
 * is where the cubic flattens, and the rate is β × it.
 */
export function settlePlateau(state: PaceState): void {
  const counted = Math.max(MIN_RATE, state.refusedWindowPassed);
  if (counted >= state.plateau) return;
  state.plateau = counted;
  // β × a count at the floor is below it: the floor holds here too (0.45 a second, before).
  state.rate = Math.max(MIN_RATE, Math.min(state.rate, counted * DECREASE_FACTOR));
}

/** Counts a request that passed `now` among those of the last {@link MEASURE_WINDOW_MS}. */
export function countPassed(state: PaceState, now: number): void {
  state.passedAt.push(now);
  while (state.passedAt.length > 0 && (state.passedAt[0] as number) < now - MEASURE_WINDOW_MS)
    state.passedAt.shift();
}

/** Two lists of pass times as one, in order. */
export function mergedTimes(one: readonly number[], other: readonly number[]): number[] {
  return [...one, ...other].sort((a, b) => a - b);
}

/**
 * Milliseconds until a request may start (0: now). `idleStartsAtOnce`: the state's count of
 * requests in flight is every client's that keeps this pace (not one client's slow start kept in
 * memory while others on the machine may keep theirs).
 */
export function startDelay(state: PaceState, now: number, idleStartsAtOnce = true): number {
  // Before the first refusal a request starts at once while nothing else is in flight (of any
  // client keeping this pace): one request after another cannot burst, and need not wait for
  // the rate to climb. Each of several processes doing so would: 4 sent 200 a second together.
  const spaced = idleStartsAtOnce && state.slowStart && state.inFlight === 0 ? now : state.nextStartAt;
  const startAt = Math.max(now, state.pausedUntil, spaced);
  if (startAt > now) return startAt - now;
  if (windowMayBeFull(state, now) && state.inFlight > 0) return 1000 / state.rate;
  return 0;
}

/** Since the last decrease nothing sent after it passed, and the platform's window may still be full. */
export function windowMayBeFull(state: PaceState, now: number): boolean {
  return !state.episodeConfirmed && now - state.decreasedAt < FULL_WINDOW_MS;
}

/** The rate the cubic gives `now`: C·(t − K)³ + plateau, K = ∛(plateau·(1 − β) ÷ C). */
export function cubic(state: PaceState, now: number): number {
  const k = Math.cbrt((state.plateau * (1 - DECREASE_FACTOR)) / CUBIC_SCALE);
  const t = (now - state.decreasedAt) / 1000;
  return CUBIC_SCALE * (t - k) ** 3 + state.plateau;
}

/** Twice what passed in the last second, plus the initial rate. */
export function ceiling(state: PaceState): number {
  return INITIAL_RATE + 2 * state.passedAt.length * (1000 / MEASURE_WINDOW_MS);
}

/**
 * A client joins a pace whose first decrease another made, before anything sent since passed: the
 * requests it passed in the second before that decrease were the machine's too, and the decrease
 * (from the refused client's count alone) did not know them. They are added to the rate it came at.
 */
export function joinEpisode(state: PaceState, own: readonly number[]): void {
  if (state.episodeConfirmed) return;
  const before = own.filter((at) => at <= state.decreasedAt && at >= state.decreasedAt - MEASURE_WINDOW_MS);
  const added = before.length * (1000 / MEASURE_WINDOW_MS);
  state.plateau += added;
  state.refusedWindowPassed += added;
  state.rate = Math.max(MIN_RATE, state.plateau * DECREASE_FACTOR);
}
