/**
 * Stops the dynamic provider host when the Pulumi CLI that started it is gone.
 *
 * The engine starts the host as a child process and talks to it over gRPC. When the CLI is killed
 * (SIGKILL, a cancelled CI job), nothing tells the host: it would go on carrying out the operations
 * it was given — adding devices of a fleet, say — for a deployment whose state nobody will record,
 * racing the next `up`, and then stay alive holding its memory. A child whose parent died is
 * re-parented, so a changed parent process id is the sign to stop.
 */

/** How often the parent is checked. */
const CHECK_EVERY_MS = 500;

let watching = false;

/** What the watch needs from the process; tests give their own. */
export interface WatchedProcess {
  parentId(): number;
  onGone(): void;
  everyMs?: number;
}

const thisProcess: WatchedProcess = {
  parentId: () => process.ppid,
  onGone: () => process.exit(1),
};

/** Watches the parent process from now on (once per process) and exits when it is gone. */
export function exitWhenEngineGone(watched: WatchedProcess = thisProcess): () => void {
  if (watching && watched === thisProcess) return () => undefined;
  if (watched === thisProcess) watching = true;
  const parent = watched.parentId();
  const timer = setInterval(() => {
    if (watched.parentId() === parent) return;
    clearInterval(timer);
    watched.onGone();
  }, watched.everyMs ?? CHECK_EVERY_MS);
  // Never the reason the process stays alive.
  timer.unref();
  return () => clearInterval(timer);
}
