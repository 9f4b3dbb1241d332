/**
 * Which process this is, and whether one named so still runs: the key a file shared by this user's
 * processes counts a process's share by (the machine's pace counts each process's requests in
 * flight), so that what a process killed mid-request left counted is dropped by the next change
 * instead of slowing every later process until the file goes idle.
 *
 * A pid alone could be another process's by the time it is checked (pids are reused), so on Linux
 * the key also carries the process's start time (field 22 of `/proc/<pid>/stat`, in clock ticks
 * since boot): a process with that pid and another start time is not the one counted. Where there is
 * no `/proc` (macOS, Windows) the key is the pid, and a reused pid keeps a dead process's count until
 * the reusing process ends or the pace goes idle — as every count was kept before.
 */
import * as fs from "node:fs";

/** `<pid>` or `<pid>@<start time>`; what {@link processRunning} takes. */
export type ProcessKey = string;

/** The start time of a process in clock ticks since boot (Linux), undefined where it cannot be read. */
function startTicks(pid: number): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or parentheses of its own.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // Fields from the state (field 3) on: the start time is field 22.
  const ticks = fields[22 - 3];
  return ticks !== undefined && /^\d+$/.test(ticks) ? ticks : undefined;
}

let own: ProcessKey | undefined;

/** This process's key. */
export function ownProcessKey(): ProcessKey {
  if (own === undefined) {
    const ticks = startTicks(process.pid);
    own = ticks === undefined ? String(process.pid) : `${process.pid}@${ticks}`;
  }
  return own;
}

/**
 * Whether the process `key` names still runs. Fails toward running: a key that does not read, or a
 * process this user may not signal (EPERM: it runs, as another user), counts as running.
 */
export function processRunning(key: ProcessKey): boolean {
  const match = /^(\d+)(?:@(\d+))?$/.exec(key);
  if (match === null) return true;
  const pid = Number(match[1]);
  if (pid === process.pid) return key === ownProcessKey();
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    return true;
  }
  const ticks = match[2];
  if (ticks === undefined) return true;
  const now = startTicks(pid);
  // A zombie or a process that ended between the two reads has no stat to compare: gone if unreadable.
  return now === ticks;
}
