/**
 * Progress of the slow reads on stderr. Nothing is shown for a phase that ends within a second
 * (most exports of a few hundred devices), so quick runs stay quiet.
 *
 * On a terminal, cli-progress draws a bar redrawn in place. When stderr is not a terminal (a CI log,
 * a pipe), plain lines instead: one when the phase has run a second, one every 5 seconds after that,
 * and one when it is done — a log then shows that a long export is alive, without carriage returns
 * or escape sequences in it. (cli-progress's own non-terminal mode writes an empty line after every
 * bar and a last line even when the phase failed, hence these few lines of our own.)
 */
import { SingleBar } from "cli-progress";

/** How a {@link Progress} shows itself. */
export interface ProgressOptions {
  /** Where to write; stderr, so that stdout keeps only the command's result. */
  readonly stream: NodeJS.WriteStream;
  /** A phase shorter than this shows nothing (default 1000 ms). */
  readonly delayMs?: number;
  /** Interval of plain lines when the stream is not a terminal (default 5000 ms). */
  readonly plainIntervalMs?: number;
}

const PREFIX = "devplatform export:";

function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** One phase of work: counts up to a total, if one is known. */
export class ProgressPhase {
  readonly #started = Date.now();
  #value = 0;
  #bar: SingleBar | undefined;
  #timer: NodeJS.Timeout | undefined;
  #shown = false;

  constructor(
    private readonly label: string,
    private readonly total: number | undefined,
    private readonly options: Required<ProgressOptions>,
  ) {
    this.#timer = setTimeout(() => this.#show(), options.delayMs);
    // A pending progress display must never keep the process alive.
    this.#timer.unref();
  }

  /** Counts `by` more items done. */
  increment(by = 1): void {
    this.#value += by;
    this.#bar?.update(this.#value);
  }

  /**
   * Ends the phase. If it was shown, its line is completed: on a terminal the bar stops where it
   * is; otherwise a last plain line says what was done, unless the phase `failed`.
   */
  finish(failed = false): void {
    clearTimeout(this.#timer);
    clearInterval(this.#timer);
    if (this.#bar) {
      this.#bar.update(this.#value);
      this.#bar.stop();
    } else if (this.#shown && !failed) {
      const seconds = ((Date.now() - this.#started) / 1000).toFixed(1);
      this.options.stream.write(`${PREFIX} ${this.label}: ${count(this.#value)} done in ${seconds} s\n`);
    }
    this.#bar = undefined;
  }

  #plainLine(): void {
    const of = this.total === undefined ? "" : ` of ${count(this.total)}`;
    this.options.stream.write(`${PREFIX} ${this.label}: ${count(this.#value)}${of}\n`);
  }

  #show(): void {
    this.#shown = true;
    if (this.options.stream.isTTY !== true) {
      this.#plainLine();
      this.#timer = setInterval(() => this.#plainLine(), this.options.plainIntervalMs);
      this.#timer.unref();
      return;
    }
    const counts = this.total === undefined ? "{value}" : "[{bar}] {value}/{total}";
    this.#bar = new SingleBar({
      stream: this.options.stream,
      format: `${PREFIX} ${this.label} ${counts} {duration_formatted}`,
      barsize: 30,
      hideCursor: false,
      clearOnComplete: false,
    });
    this.#bar.start(this.total ?? 0, this.#value);
  }
}

/** Starts phases of progress on one stream. */
export class Progress {
  readonly #options: Required<ProgressOptions>;

  constructor(options: ProgressOptions) {
    this.#options = { delayMs: 1000, plainIntervalMs: 5000, ...options };
  }

  /** A new phase, e.g. `progress.phase("reading configurations", devices.length)`. */
  phase(label: string, total?: number): ProgressPhase {
    return new ProgressPhase(label, total, this.#options);
  }
}
