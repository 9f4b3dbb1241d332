/**
 * The emulator's clock: wall time plus an offset that the control API advances, so tests can expire
 * tokens without waiting.
 */
export class Clock {
  private offsetMs = 0;

  /** Milliseconds since the epoch, offset included. */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Moves the clock forward (never backward: a negative value is a caller bug). */
  advance(seconds: number): void {
    if (!(seconds >= 0)) throw new RangeError("seconds must be a non-negative number");
    this.offsetMs += seconds * 1000;
  }

  /** The current offset, in seconds. */
  offsetSeconds(): number {
    return this.offsetMs / 1000;
  }

  /** Back to wall time. */
  reset(): void {
    this.offsetMs = 0;
  }
}
