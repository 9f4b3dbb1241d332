/**
 * SIGKILL of a process, then a wait until everything it had started has ended too (Linux `/proc`):
 * a killed `pulumi up` whose plugins — the language host, the program, the dynamic provider — must
 * stop on their own. Until they have, they could still write to the platform; after, nothing of the
 * run can, so what a test sees next does not depend on timing.
 */
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

interface ProcessInfo {
  pid: number;
  ppid: number;
  state: string;
}

/** `/proc/{pid}/stat`: pid, (comm), state, ppid, … — comm may hold spaces and parentheses. */
function processInfo(pid: number): ProcessInfo | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { pid, state: fields[0] ?? "", ppid: Number(fields[1]) };
}

function allProcesses(): ProcessInfo[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => processInfo(Number(name)))
    .filter((info): info is ProcessInfo => info !== undefined);
}

/** `root` and all its descendants now. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const { pid, ppid } of allProcesses()) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const tree: number[] = [];
  const pending = [root];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    tree.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Whether a process is gone (or a zombie: dead, only its exit status left to collect). */
function ended(pid: number): boolean {
  const info = processInfo(pid);
  return info === undefined || info.state === "Z" || info.state === "X";
}

/**
 * Whether a process is one of this provider's: the dynamic provider host (and Pulumi's launcher
 * `sh` around it) or the plugin. The language host and the program are Pulumi's own processes.
 */
function isProvider(pid: number): boolean {
  return /cmd\/dynamic-provider|pulumi-resource-pulumi-nodejs|pulumi-resource-devplatform|provider\/plugin\/main\.js/.test(
    commandOf(pid),
  );
}

/**
 * Sends SIGKILL to `root` alone, then waits until every provider process it had started has ended
 * on its own (the providers notice the engine is gone). Returns how long that took. If one outlives
 * `timeoutMs`, all survivors are killed and this throws, naming them: a provider that outlives its
 * engine is a bug. Pulumi's own processes of the run (the language host and the program: Pulumi's
 * Node.js host v3.68 waits for its program, which waits for an engine that is gone) are killed once
 * the providers have ended, so that nothing of the run is left.
 */
export async function killAndAwaitTree(root: number, timeoutMs = 60_000): Promise<number> {
  const descendants = processTree(root).filter((pid) => pid !== root);
  const commands = descendants.map((pid) => `${pid} ${commandOf(pid)}`);
  const providers = descendants.filter(isProvider);
  process.kill(root, "SIGKILL");
  const started = Date.now();
  for (let alive = providers; alive.length > 0; alive = alive.filter((pid) => !ended(pid))) {
    if (Date.now() - started > timeoutMs) {
      const names = alive.map((pid) => `${pid} ${commandOf(pid)}`).join("; ");
      for (const pid of descendants) signal(pid, "SIGKILL");
      throw new Error(`provider processes of the killed run outlived it by ${timeoutMs} ms: ${names}`);
    }
    await sleep(10);
  }
  const took = Date.now() - started;
  for (const pid of descendants.filter((p) => !ended(p))) signal(pid, "SIGKILL");
  if (providers.length === 0)
    throw new Error(`the killed run had no provider process: ${commands.join("; ")}`);
  return took;
}

/**
 * Sends SIGKILL to `root` and every process it had started, all at once, as a runner's machine lost
 * mid-job would stop them (a CI job killed with its `pulumi up`), then waits until all have ended.
 */
export async function killWholeTree(root: number): Promise<void> {
  const tree = processTree(root);
  for (const pid of tree) signal(pid, "SIGKILL");
  while (tree.some((pid) => !ended(pid))) await sleep(10);
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
  } catch {
    return "?";
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Ended between the walk and the signal.
  }
}
