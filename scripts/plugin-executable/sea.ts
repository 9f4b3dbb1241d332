/**
 * One self-contained executable per target: Node.js's official binary for that OS and architecture
 * (from the npm registry's `node-<os>-<arch>` package, the same release as the Node.js that builds:
 * runtime-binaries.ts)
 * with the plugin's bundle injected as a single executable application. It runs with no Node.js,
 * no `node_modules` and no file beside it.
 *
 * Reproducible: the blob names its script by a relative name (no build path), and carries no V8
 * code cache — V8 writes a different cache at each build (its hash and random seeds), and a cache
 * made with fixed seeds is rejected at run time (with a warning on stderr), so an executable with
 * one could not be rebuilt byte for byte. The price is the compile of the bundle at each start.
 */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { run } from "./runtime-binaries";
import type { Target } from "./targets";

const repoRoot = path.resolve(__dirname, "../..");
/** The fuse Node.js looks for to know it carries an application (its documentation gives it). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** What `buildExecutable` needs besides the target. */
export interface ExecutableBuild {
  /** The plugin's bundle (bundle.ts). */
  bundle: string;
  /** The target's Node.js binary (runtimeBinaryFor). */
  targetNode: string;
  /** A Node.js binary of the same release that runs here, which prepares the application's blob. */
  hostNode: string;
  /** Directory to write the executable into. */
  outDir: string;
}

/** Writes `target`'s executable into `outDir` and returns its path. */
export function buildExecutable(target: Target, build: ExecutableBuild): string {
  const work = mkdtempSync(path.join(build.outDir, `.sea-${target.name}-`));
  try {
    const blob = path.join(work, "plugin.blob");
    copyFileSync(build.bundle, path.join(work, "plugin.js"));
    const config = {
      main: "plugin.js",
      output: "plugin.blob",
      disableExperimentalSEAWarning: true,
      useCodeCache: false,
      useSnapshot: false,
    };
    writeFileSync(path.join(work, "sea-config.json"), JSON.stringify(config));
    run(build.hostNode, ["--experimental-sea-config", "sea-config.json"], work);
    const executable = path.join(work, target.executable);
    copyFileSync(build.targetNode, executable);
    chmodSync(executable, 0o755);
    const postject = path.join(repoRoot, "node_modules", "postject", "dist", "cli.js");
    run(build.hostNode, [postject, executable, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE]);
    const out = path.join(build.outDir, target.name, target.executable);
    mkdirSync(path.dirname(out), { recursive: true });
    renameSync(executable, out);
    return out;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
