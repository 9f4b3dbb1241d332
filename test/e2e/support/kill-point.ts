/**
 * A kill point of an e2e command: the emulator hold whose held requests mark the moment the CLI is
 * SIGKILLed, and the wait for every process of the run to end after it.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { EmulatorControl } from "../../../emulator";
import { killAndAwaitTree, killWholeTree } from "./process-tree";

/** A kill point: the emulator hold whose held requests mark it. */
export interface KillPoint {
  control: EmulatorControl;
  holdId: string;
  /** How many requests must wait at the hold before the kill (default 1). */
  held?: number;
  /**
   * And this must hold too (asked until it does, once `held` requests wait): e.g. the checkpoint
   * records every step that does not wait at the hold, so what the dead run recorded is exact.
   */
  andWhen?: () => boolean | Promise<boolean>;
}

/**
 * Kills the CLI `pid` once the kill point is reached. `done` settles when every process of the run
 * has ended (with how long the plugins took), or at once when no kill was due. `whole-tree` kills
 * `pid` and everything it started at once (a CI job, its runner lost) instead of the CLI alone
 * (`done` then settles with 0).
 */
export function killAtPoint(
  pid: number | undefined,
  point: KillPoint | undefined,
  mode: "cli" | "whole-tree" = "cli",
): { done: Promise<number | undefined>; stop(): void } {
  if (pid === undefined || point === undefined) {
    return { done: Promise.resolve(undefined), stop: () => undefined };
  }
  const abort = new AbortController();
  const reached = async (): Promise<void> => {
    await point.control.waitUntilHeld(point.holdId, point.held ?? 1, { signal: abort.signal });
    while (point.andWhen && !(await point.andWhen())) await sleep(25, undefined, { signal: abort.signal });
  };
  const done = reached().then(
    () => (mode === "cli" ? killAndAwaitTree(pid) : killWholeTree(pid).then(() => 0)),
    (error: unknown) => {
      // The run ended before its kill point: the test sees exit code 0 and says so.
      if (!abort.signal.aborted) throw error;
      return undefined;
    },
  );
  return { done, stop: () => abort.abort() };
}
