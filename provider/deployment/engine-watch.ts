/**
 * Stops a provider process (the dynamic provider host, a plugin instance) when the engine that
 * started it is gone.
 *
 * The engine starts the process and talks to it over gRPC. When the CLI is killed (SIGKILL, a
 * cancelled CI job), nothing tells the process: it would go on carrying out the operations it was
 * given — adding devices of a fleet, say — for a deployment whose state nobody will record, racing
 * the next `up`, and then stay alive holding its memory. The engine is watched where the engine
 * says it is, its address: a refused connection there proves it gone. The parent process is not
 * the engine under Pulumi's own launcher (`sh` runs node without `exec` and outlives a killed CLI),
 * so a changed parent only adds a quicker sign (re-parented: whoever started us is gone).
 */
import { engineAddressIn, engineIsGone } from "./engine-address";

/** How often the engine is looked for. */
const CHECK_EVERY_MS = 500;

let watching = false;

/** What the watch needs from the process; tests give their own. */
export interface WatchedProcess {
  /** The engine's address (none: only the parent is watched). */
  engineAddress(): string | undefined;
  parentId(): number;
  onGone(): void;
  everyMs?: number;
}

const thisProcess: WatchedProcess = {
  engineAddress: () => engineAddressIn(process.argv.slice(2)),
  parentId: () => process.ppid,
  onGone: () => process.exit(1),
};

/** Watches the engine from now on (once per process) and calls `onGone` once it is gone. */
export function exitWhenEngineGone(watched: WatchedProcess = thisProcess): () => void {
  if (watching && watched === thisProcess) return () => undefined;
  if (watched === thisProcess) watching = true;
  const parent = watched.parentId();
  const address = watched.engineAddress();
  let probing = false;
  let stopped = false;
  const gone = () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    watched.onGone();
  };
  const timer = setInterval(() => {
    if (watched.parentId() !== parent) return gone();
    if (address === undefined || probing) return;
    probing = true;
    void engineIsGone(address).then((isGone) => {
      probing = false;
      if (isGone) gone();
    });
  }, watched.everyMs ?? CHECK_EVERY_MS);
  // Never the reason the process stays alive.
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
