/**
 * One pace for the provider processes of one machine that use one application: the dynamic
 * provider host and each plugin instance of a deployment, and the deployments of other stacks run
 * at the same time (a pipeline's jobs on one runner, `pulumi up` of every site from one laptop).
 * Each process's pacer (the SDK's pacer.ts) keeps its pace here instead of alone, so together they
 * keep to one rate and meet the platform's limit as seldom as one client does — instead of each
 * finding its share from refusals of its own. Processes on other machines share nothing and need
 * nothing: each finds its share by itself.
 *
 * The pace is a file, `state.json`, in a directory per application under the user's shared root
 * (shared-record-paths.ts; `DEVPLATFORM_PACE_DIR` puts the directories elsewhere). Every change is
 * read, made and written back whole (by a rename) under a lock: a directory `lock` made with
 * `mkdir`, which fails when it exists. A lock older than {@link STALE_LOCK_MS} was left by a
 * process that died holding it and is broken. The pace is advice, not a guard: a directory that is
 * not this user's alone, a file that does not read, or a lock not had within
 * {@link LOCK_WAIT_MS} makes that change the process's own (pacer.ts goes on with its last view),
 * and a pace nobody changed for {@link IDLE_RESET_MS} starts again as a new client's.
 *
 * The requests in flight are counted per process (process-key.ts): the state's `inFlight` is the
 * sum over the processes still running, so a process killed mid-request leaves nothing counted
 * (before, its count held every later process to one start at a time until the pace went idle).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { initialPaceState, PROVEN_RATE_VALID_MS, type PaceState, type PaceStore } from "../../sdk/pace-state";
import { machineMs } from "../deployment/machine-clock";
import { ownProcessKey, processRunning } from "../deployment/process-key";
import { applicationKey, ensureDirectory, readOwnFile, sharedRoot } from "../deployment/shared-record-paths";
import { jsonObject, readProven, removeProven, writeProven } from "./proven-rate-file";

/** How long a change waits for the lock before it is made on the process's own view. */
export const LOCK_WAIT_MS = 200;
/** A lock older than this was left by a process that died holding it. */
export const STALE_LOCK_MS = 1_000;
/** A pace nobody changed for this long starts again at the initial rate, in slow start. */
export const IDLE_RESET_MS = 5_000;

const STATE = "state.json";
const LOCK = "lock";

/** A pace kept in a directory that every process of this user on this machine can reach. */
export class MachinePaceStore implements PaceStore {
  private opened = false;
  private readonly sleeper = new Int32Array(new SharedArrayBuffer(4));
  /** The state file's identity at the last {@link changed} (inode, size, modification time). */
  private lastSeen = "";

  /**
   * @param directory the application's pace directory
   * @param now the machine's monotonic clock, the pace's times' (tests move it)
   * @param wallNow the wall clock, which files' modification times go by (tests move it)
   */
  constructor(
    readonly directory: string,
    private readonly now: () => number = machineMs,
    private readonly wallNow: () => number = Date.now,
  ) {}

  transact<T>(change: (state: PaceState) => T): T {
    this.open();
    this.lock();
    try {
      const { state, holders } = this.readCounted();
      const before = state.inFlight;
      const result = change(state);
      this.write(state, holdersAfter(holders, state.inFlight - before));
      return result;
    } finally {
      fs.rmSync(path.join(this.directory, LOCK), { recursive: true, force: true });
    }
  }

  /** The pace as its file holds it, read without the lock (every write is a rename: a whole file). */
  peek(): PaceState {
    this.open();
    return this.readCounted().state;
  }

  /**
   * The pace when its file changed since the last call: one `stat` when it did not (what a process
   * not yet pacing pays before each start, to learn of another's refusal). Only a
   * pacing process writes the file, so a file that changed is a pace some process keeps.
   */
  changed(): PaceState | undefined {
    this.open();
    const file = path.join(this.directory, STATE);
    let seen: string;
    try {
      const stat = fs.lstatSync(file);
      seen = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    if (seen === this.lastSeen) return undefined;
    this.lastSeen = seen;
    return this.readCounted().state;
  }

  /**
   * The rate a client of this machine proved before any refusal (proven-rate-file.ts), while it is
   * younger than PROVEN_RATE_VALID_MS and the pace's last decrease is not as recent (a refusal
   * within that time wins, whichever came first: the memory may have been written by a client that
   * had not yet seen it).
   */
  recall(): number | undefined {
    this.open();
    const kept = readProven(this.directory);
    if (kept === undefined) return undefined;
    const since = this.now() - PROVEN_RATE_VALID_MS;
    if (kept.at > this.now() || kept.at < since) return undefined;
    const decreasedAt = this.storedDecrease();
    return decreasedAt !== undefined && decreasedAt > since ? undefined : kept.rate;
  }

  remember(rate: number): void {
    this.open();
    writeProven(this.directory, { rate, at: this.now() });
  }

  forget(): void {
    this.open();
    removeProven(this.directory);
  }

  /** The pace file's last decrease, as written (no idle reset); undefined when there has been none. */
  private storedDecrease(): number | undefined {
    const text = readOwnFile(path.join(this.directory, STATE));
    if (text === undefined) return undefined;
    // A pace file that does not read might hold a refusal: the memory is not trusted beside it.
    const decreasedAt = parseState(text)?.state.decreasedAt ?? Number.POSITIVE_INFINITY;
    return decreasedAt === 0 ? undefined : decreasedAt;
  }

  private open(): void {
    if (this.opened) return;
    const root = path.dirname(this.directory);
    // Each directory is verified before anything is made in it: the user's shared root too, when
    // the pace lives in it (whoever could write there could swap the pace's directory). Made at
    // once with `recursive`, another user's symbolic link planted as the shared root got a
    // directory made at its target before the check refused it.
    if (process.env.DEVPLATFORM_PACE_DIR === undefined) ensureDirectory(sharedRoot());
    else fs.mkdirSync(path.dirname(root), { recursive: true, mode: 0o700 });
    ensureDirectory(root);
    ensureDirectory(this.directory);
    this.opened = true;
  }

  private lock(): void {
    const lock = path.join(this.directory, LOCK);
    const deadline = this.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        fs.mkdirSync(lock, { mode: 0o700 });
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      if (this.isStale(lock)) {
        // Two processes may break one stale lock at once and both go on: one change of the pace
        // is then lost, which costs at most a refusal (the pace is advice).
        fs.rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (this.now() > deadline) throw new Error(`the pace's lock ${lock} is held too long`);
      Atomics.wait(this.sleeper, 0, 0, 1);
    }
  }

  private isStale(lock: string): boolean {
    try {
      // A lock's time is a file's (the wall clock's); one dated in the future is as stale as one
      // long past (the clock stepped back since it was made), not held for ever.
      return Math.abs(this.wallNow() - fs.statSync(lock).mtimeMs) > STALE_LOCK_MS;
    } catch {
      return false; // released meanwhile
    }
  }

  /** The pace with its count in flight that of the processes still running, and their counts. */
  private readCounted(): { state: PaceState; holders: Holders } {
    const { state, holders } = this.read();
    const running = liveHolders(holders);
    state.inFlight = total(running);
    return { state, holders: running };
  }

  private read(): { state: PaceState; holders: Holders } {
    const fresh = { state: initialPaceState(), holders: {} };
    const text = readOwnFile(path.join(this.directory, STATE));
    if (text === undefined) return fresh;
    const stored = parseState(text);
    if (stored === undefined) return fresh;
    const now = this.now();
    // Dated after now: written on another clock (a provider before the monotonic one, or before
    // the machine's boot), and its times mean nothing on this one.
    if (stored.changedAt > now) return fresh;
    // A pause still running outlives the idle reset: everyone slept through it, nobody changed the file.
    const idle = now - stored.changedAt > IDLE_RESET_MS && stored.state.pausedUntil <= now;
    return idle ? fresh : { state: stored.state, holders: stored.holders };
  }

  private write(state: PaceState, holders: Holders): void {
    const file = path.join(this.directory, STATE);
    const temporary = `${file}.${process.pid}.tmp`;
    const kept = { ...state, inFlight: total(holders), holders, changedAt: this.now() };
    fs.writeFileSync(temporary, JSON.stringify(kept), { mode: 0o600 });
    fs.renameSync(temporary, file);
  }
}

/** Requests in flight per process (process-key.ts), as the pace's file keeps them. */
type Holders = Record<string, number>;

function total(holders: Holders): number {
  return Object.values(holders).reduce((sum, count) => sum + count, 0);
}

/** The counts of the processes still running. */
function liveHolders(holders: Holders): Holders {
  return Object.fromEntries(Object.entries(holders).filter(([key]) => processRunning(key)));
}

/** The counts after this process's change moved the total by `delta` (its own starts and ends). */
function holdersAfter(holders: Holders, delta: number): Holders {
  const key = ownProcessKey();
  const own = Math.max(0, (holders[key] ?? 0) + delta);
  const others = Object.entries(holders).filter(([holder]) => holder !== key);
  return Object.fromEntries(own > 0 ? [...others, [key, own]] : others);
}

/** The counts a stored pace gives, when they are counts; none from a pace an older provider wrote. */
function parseHolders(given: unknown): Holders {
  if (typeof given !== "object" || given === null || Array.isArray(given)) return {};
  const entries = Object.entries(given as Record<string, unknown>);
  const valid = entries.filter(
    (entry): entry is [string, number] => Number.isInteger(entry[1]) && (entry[1] as number) > 0,
  );
  return Object.fromEntries(valid);
}

/** A stored pace, when the text is one. */
function parseState(text: string): { state: PaceState; holders: Holders; changedAt: number } | undefined {
  const given = jsonObject(text);
  if (given === undefined) return undefined;
  const fresh = initialPaceState();
  const numbers = [
    "rate",
    "pausedUntil",
    "nextStartAt",
    "issued",
    "episodeStart",
    "plateau",
    "decreasedAt",
    "inFlight",
  ] as const;
  for (const key of [...numbers, "changedAt"]) if (!Number.isFinite(given[key])) return undefined;
  if (typeof given.slowStart !== "boolean" || typeof given.episodeConfirmed !== "boolean") return undefined;
  if (!Array.isArray(given.passedAt)) return undefined;
  if (!given.passedAt.every((at) => Number.isFinite(at))) return undefined;
  if (!((given.rate as number) > 0)) return undefined;
  const state: PaceState = {
    ...fresh,
    slowStart: given.slowStart,
    episodeConfirmed: given.episodeConfirmed,
    passedAt: given.passedAt as number[],
  };
  for (const key of numbers) state[key] = given[key] as number;
  // A pace an older provider kept has no count of its refused window: none that would lower the plateau.
  const counted = given.refusedWindowPassed;
  state.refusedWindowPassed = Number.isFinite(counted) ? (counted as number) : state.plateau;
  // An older provider's count has no processes to it: it cannot be told from a dead process's.
  return { state, holders: parseHolders(given.holders), changedAt: given.changedAt as number };
}

/** Where the pace directories of this user's processes live. */
export function paceRoot(): string {
  return process.env.DEVPLATFORM_PACE_DIR ?? path.join(sharedRoot(), "pace");
}

/**
 * The pace store of an application on this machine, by its client id (`applicationKey`): the
 * platform's rate limit is the application's, whichever spelling of its URL a process uses.
 */
export function machinePaceStore(clientId: string): MachinePaceStore {
  return new MachinePaceStore(path.join(paceRoot(), applicationKey(clientId)));
}
