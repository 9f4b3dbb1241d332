import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { parseJson, stringifyJson } from "../http/lossless-json";

let tempCounter = 0;

/** The parsed contents of a state file, or `undefined` when it does not exist yet. */
export function readStateFile(path: string): unknown {
  if (!existsSync(path)) return undefined;
  return parseJson(readFileSync(path, "utf8"));
}

/**
 * Writes a state file atomically: a temporary file in the same directory, then a rename over the
 * target, so a crash never leaves a half-written file behind.
 */
export function writeStateFile(path: string, data: unknown): void {
  tempCounter += 1;
  const temp = `${path}.${process.pid}.${tempCounter}.tmp`;
  writeFileSync(temp, `${stringifyJson(data, 2)}\n`, { mode: 0o600 });
  renameSync(temp, path);
}

/**
 * Debounced state-file writes: a change marks the state dirty and the file is written `delayMs`
 * later, batching every change made meanwhile (so at most one write per `delayMs`), or at once by
 * {@link flush}.
 * Writes are synchronous on purpose: a later flush can never be overtaken by an earlier write.
 */
export class StateFileWriter {
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;

  constructor(
    private readonly path: string,
    private readonly snapshot: () => unknown,
    private readonly delayMs: number,
  ) {}

  /** Notes a change and schedules a write. */
  markDirty(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // A failed background write must not crash the server; the state stays dirty for the next try.
      try {
        this.flush();
      } catch (error) {
        this.dirty = true;
        process.stderr.write(
          `devplatform-emulator: cannot write ${this.path}: ${(error as Error).message}\n`,
        );
      }
    }, this.delayMs);
    this.timer.unref();
  }

  /** Writes now if anything changed since the last write. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.dirty) return;
    this.dirty = false;
    writeStateFile(this.path, this.snapshot());
  }
}
