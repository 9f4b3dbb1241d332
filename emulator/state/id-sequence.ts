/**
 * Issues 64-bit ids as strings of digits. The sequences start far above 2^53 on purpose: a client
 * that turns an id into a JavaScript number loses digits, and tests notice.
 */
export class IdSequence {
  private next: bigint;

  constructor(private readonly start: bigint) {
    this.next = start;
  }

  /** The next id. */
  issue(): string {
    const id = this.next;
    this.next += 1n;
    return id.toString();
  }

  /** The id the next {@link issue} returns, for snapshots. */
  peek(): string {
    return this.next.toString();
  }

  /** Continues from a saved position (a {@link peek} value). */
  restore(next: string): void {
    this.next = BigInt(next);
  }

  /** Back to the first id. */
  reset(): void {
    this.next = this.start;
  }
}

/** First deviceId: 1.735e18, well above 2^53 ≈ 9.007e15 and below 2^63. */
export const FIRST_DEVICE_ID = 1_735_000_000_000_000_001n;
/** First taskId. */
export const FIRST_TASK_ID = 1_836_000_000_000_000_001n;
/** First id for applications other than the credentials' own. */
export const FIRST_APPLICATION_ID = 1_650_000_000_000_000_101n;
/** The applicationId of the application the emulator's client credentials belong to. */
export const DEFAULT_APPLICATION_ID = "1650000000000000017";
/** Its name. */
export const DEFAULT_APPLICATION_NAME = "demo-application";
