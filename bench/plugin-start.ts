/**
 * How fast the provider plugin starts: the time from exec to the port on its first line of stdout
 * (what the engine waits for before each plugin process), for the release archive's self-contained
 * executable against the npm package's launcher (`bin/pulumi-resource-devplatform`, the compiled
 * plugin on Node.js 22). Runs alternate between the two so that load from elsewhere falls on both;
 * the figure is the best of N, the least disturbed start of each.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";

const repoRoot = path.resolve(__dirname, "..");

/** Milliseconds from spawning `command` to its first line of stdout (a port); then it is stopped. */
export async function timeToPort(command: string): Promise<number> {
  const started = performance.now();
  // The engine's address comes last; nothing listens there, and the port is printed before any use of it.
  const child = spawn(command, ["127.0.0.1:1"], { stdio: ["ignore", "pipe", "ignore"] });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  try {
    const first = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
    const elapsed = performance.now() - started;
    if (!/^\d+$/.test(String(first.value)))
      throw new Error(`${command} printed ${String(first.value)}, not a port`);
    return elapsed;
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

/** The linux-amd64 archive (built or taken from the cache) and its executable, unpacked into `workDir`. */
export function archiveExecutable(workDir: string): { archive: string; path: string } {
  const dir = mkdtempSync(path.join(workDir, "plugin-archive-"));
  const archive = execFileSync("bash", ["scripts/plugin-archive.sh", dir, "--targets", "linux-amd64"], {
    cwd: repoRoot,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  execFileSync("tar", ["-xzf", archive, "-C", dir]);
  return { archive, path: path.join(dir, "pulumi-resource-devplatform") };
}

/** Start-time figures, milliseconds. */
export interface PluginStartFigures {
  runs: number;
  executableBestMs: number;
  launcherBestMs: number;
  executableMedianMs: number;
  launcherMedianMs: number;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Measures both, alternating, `runs` times each (after one unrecorded start of each, for the file cache). */
export async function measurePluginStart(
  executable: string,
  launcher: string,
  runs = 10,
): Promise<{ figures: PluginStartFigures }> {
  await timeToPort(executable);
  await timeToPort(launcher);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs; i++) {
    a.push(await timeToPort(executable));
    b.push(await timeToPort(launcher));
  }
  const figures = {
    runs,
    executableBestMs: Math.round(Math.min(...a)),
    launcherBestMs: Math.round(Math.min(...b)),
    executableMedianMs: Math.round(median(a)),
    launcherMedianMs: Math.round(median(b)),
  };
  return { figures };
}
