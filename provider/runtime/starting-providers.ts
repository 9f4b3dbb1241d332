/**
 * The deployment's provider processes that have started but not yet joined the one-owner record.
 *
 * The engine starts a provider process when the program first registers a resource it serves:
 * the plugin for the first `devplatform:index:*` resource, Pulumi's dynamic provider host for the
 * first dynamic one. A process joins the record (creates its file, `<application>.<pid>.jsonl`)
 * once it is configured, and only then can it publish what its resources declare. Until then it
 * is invisible to the record — and a cold start can take seconds (6 s measured on a loaded 2-core
 * machine), while the other process's fleet, updated meanwhile, decides whether to delete a serial
 * number the late process's Device declares. So a delete first waits for the processes the
 * engine has started for this deployment (found by their arguments: each is handed the engine's
 * address) to join.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/** One process: its id, its parent's, and its arguments. */
export interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly args: readonly string[];
}

/**
 * What names a process as one of this package's providers: the plugin's launcher or its main
 * module, Pulumi's dynamic-provider launcher (`sh` around node) or its host module.
 */
const PROVIDER_MARKS = [
  "pulumi-resource-devplatform",
  path.join("provider", "plugin", "main.js"),
  "pulumi-resource-pulumi-nodejs",
  path.join("cmd", "dynamic-provider", "index.js"),
];

function linuxProcesses(): ProcessEntry[] {
  const ownNamespace = fs.readlinkSync("/proc/self/ns/net");
  const entries: ProcessEntry[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Another network namespace's engine may listen at the same loopback address.
      if (fs.readlinkSync(`/proc/${name}/ns/net`) !== ownNamespace) continue;
      const args = fs.readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").filter(Boolean);
      // The parent pid is the second field after the command name, which may hold spaces and ")".
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      entries.push({ pid: Number(name), ppid, args });
    } catch {
      // Ended meanwhile, or not ours to read: not one of this user's providers.
    }
  }
  return entries;
}

function psProcesses(): ProcessEntry[] {
  const text = execFileSync("ps", ["-A", "-o", "pid=,ppid=,args="], { encoding: "utf8" });
  return text
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length >= 3)
    .map(([pid, ppid, ...args]) => ({ pid: Number(pid), ppid: Number(ppid), args }));
}

/** The machine's processes; undefined where they cannot be listed (Windows). */
export function listProcesses(): ProcessEntry[] | undefined {
  try {
    if (process.platform === "linux") return linuxProcesses();
    if (process.platform === "win32") return undefined;
    return psProcesses();
  } catch {
    return undefined;
  }
}

/**
 * The provider processes of the deployment at `engineAddress` that have not joined its record:
 * neither they nor a process they started (Pulumi's launcher runs node under `sh`) is among
 * `joined`, the writers of the deployment's files.
 */
export function startingProviders(
  processes: readonly ProcessEntry[],
  engineAddress: string,
  joined: ReadonlySet<number>,
): number[] {
  const children = new Map<number, number[]>();
  for (const { pid, ppid } of processes) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const joinedHere = (pid: number, depth = 0): boolean =>
    joined.has(pid) || (depth < 4 && (children.get(pid) ?? []).some((child) => joinedHere(child, depth + 1)));
  return processes
    .filter(
      ({ args }) =>
        args.includes(engineAddress) && args.some((arg) => PROVIDER_MARKS.some((mark) => arg.endsWith(mark))),
    )
    .map(({ pid }) => pid)
    .filter((pid) => pid !== process.pid && !joinedHere(pid));
}
