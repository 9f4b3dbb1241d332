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
 * address) to join — this package's only: the plugin by its file name, Pulumi's dynamic provider
 * host only when the program declared a dynamic resource of this package (dynamic-mark.ts), since
 * any other package's dynamic resource starts one too, which would never join.
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

/** Pulumi's dynamic-provider launcher (`sh` around node) and its host module. */
const DYNAMIC_HOST_MARKS = [
  "pulumi-resource-pulumi-nodejs",
  path.join("cmd", "dynamic-provider", "index.js"),
];

/** The plugin's launcher or executable: a plugin's file name is its package's, `pulumi-resource-<name>`. */
const PLUGIN_NAME = "pulumi-resource-devplatform";

/** The plugin's main module, which its launcher runs under node. */
const PLUGIN_MAIN = path.join("provider", "plugin", "main.js");

/** This package's name, which the package.json above the plugin's main module must carry. */
const PACKAGE_NAME = "pulumi-devplatform";

/**
 * Whether `arg` is this package's plugin main module: a `provider/plugin/main.js` under a
 * package.json (up to three levels above it) that names this package. Another package's file of
 * the same path is not ours.
 */
function isOurPluginMain(arg: string): boolean {
  if (!arg.endsWith(PLUGIN_MAIN) || !path.isAbsolute(arg)) return false;
  let directory = path.dirname(arg);
  for (let level = 0; level < 4; level += 1) {
    directory = path.dirname(directory);
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(directory, "package.json"), "utf8")) as unknown;
      return (manifest as { name?: unknown }).name === PACKAGE_NAME;
    } catch {
      // No package.json here: look one level up.
    }
  }
  return false;
}

/**
 * Whether a process's arguments name it as one of this package's providers: the plugin (by its
 * file name, or its main module under this package), or — when the program declared one of this
 * package's dynamic resources (`dynamicMarked`, see dynamic-mark.ts) — Pulumi's dynamic provider
 * host, which otherwise serves only other packages' dynamic resources.
 */
export function isOurProvider(args: readonly string[], dynamicMarked: boolean): boolean {
  return args.some(
    (arg) =>
      path.basename(arg) === PLUGIN_NAME ||
      isOurPluginMain(arg) ||
      (dynamicMarked && DYNAMIC_HOST_MARKS.some((mark) => arg.endsWith(mark))),
  );
}

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

/**
 * The machine's processes; undefined where they cannot be listed (Windows; a Linux without /proc
 * and without `ps`): the caller then cannot tell that no provider is starting.
 */
export function listProcesses(): ProcessEntry[] | undefined {
  if (process.platform === "win32") return undefined;
  if (process.platform === "linux") {
    try {
      return linuxProcesses();
    } catch {
      // No /proc (a container without it mounted): `ps`, where there is one.
    }
  }
  try {
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
  dynamicMarked: boolean,
): number[] {
  const children = new Map<number, number[]>();
  for (const { pid, ppid } of processes) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const joinedHere = (pid: number, depth = 0): boolean =>
    joined.has(pid) || (depth < 4 && (children.get(pid) ?? []).some((child) => joinedHere(child, depth + 1)));
  return processes
    .filter(({ args }) => args.includes(engineAddress) && isOurProvider(args, dynamicMarked))
    .map(({ pid }) => pid)
    .filter((pid) => pid !== process.pid && !joinedHere(pid));
}
