/**
 * How far a long operation is, as ephemeral status lines on the resource's row ("1,200 of 10,000
 * devices reconciled"), the way providers report waits. Throttled: a line when the work crosses a
 * new 10% step, at most one a second (the first step and the end always show), and none for work
 * too small to wait on.
 */
import { log } from "./log";

/** Work below this many items is quick: no progress lines. */
export const PROGRESS_MIN_ITEMS = 50;
/** A line at each tenth of the work at most. */
const STEP = 0.1;
/** And at most one a second. */
const MIN_INTERVAL_MS = 1_000;

/** Counts finished items and reports through `log.status`. */
export class Progress {
  private done = 0;
  private lastStep = 0;
  private lastAt: number | undefined;
  /** Lines go one after another, so that the engine shows the latest last. */
  private sending: Promise<void> = Promise.resolve();

  /**
   * @param total items of the whole operation
   * @param describe the line for `done` of `total` (numbers already formatted)
   * @param now the clock (tests give their own)
   */
  constructor(
    private readonly total: number,
    private readonly describe: (done: string, total: string) => string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records `count` more items finished (done or failed) and reports when a line is due. */
  advance(count = 1): void {
    if (this.total < PROGRESS_MIN_ITEMS || count <= 0) return;
    this.done = Math.min(this.total, this.done + count);
    const step = Math.floor((this.done / this.total + 1e-9) / STEP);
    if (step <= this.lastStep) return;
    const finished = this.done === this.total;
    const at = this.now();
    if (!finished && this.lastAt !== undefined && at - this.lastAt < MIN_INTERVAL_MS) return;
    this.lastStep = step;
    this.lastAt = at;
    const line = this.describe(formatCount(this.done), formatCount(this.total));
    // A status line is best effort: its delivery never fails or delays the work.
    this.sending = this.sending.then(() => log.status(line)).catch(() => undefined);
  }

  /** Resolves once every line reported so far was handed to the engine (tests). */
  delivered(): Promise<void> {
    return this.sending;
  }
}

/** `10,000`: counts as people read them. */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}
