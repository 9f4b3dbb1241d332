/**
 * One self-contained executable per target: Node.js's official binary for that OS and architecture
 * (from the npm registry's `node-<os>-<arch>` package, the same release as the Node.js that builds)
 * with the plugin's bundle injected as a single executable application. It runs with no Node.js,
 * no `node_modules` and no file beside it.
 *
 * The host's executable also carries V8's code cache of the bundle, so a start compiles almost
 * nothing; the cache is only valid for the binary that made it, so other targets go without.
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { hostTarget, type Target } from "./targets";

const repoRoot = path.resolve(__dirname, "../..");
/** The fuse Node.js looks for to know it carries an application (its documentation gives it). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** Runs a build step; its chatter (postject's LIEF warnings, known to be harmless) is shown only when it fails. */
function run(command: string, args: string[], cwd?: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${path.basename(command)} ${args.join(" ")} failed:\n${stdout ?? ""}${stderr ?? ""}`, {
      cause: error,
    });
  }
}

/**
 * Node.js `version`'s official binary for `target`, fetched once into `cacheRoot` with `npm pack`
 * (which checks the registry's integrity hash; `npm install` would refuse another platform's package).
 */
export function nodeBinaryFor(target: Target, version: string, cacheRoot: string): string {
  const dir = path.join(cacheRoot, `node-bin-v${version}-${target.name}`);
  const binary = path.join(dir, path.basename(target.nodeBinary));
  if (existsSync(binary)) return binary;
  mkdirSync(cacheRoot, { recursive: true });
  const scratch = mkdtempSync(path.join(cacheRoot, `.node-bin-${target.name}-`));
  try {
    const tarball = run("npm", ["pack", "--silent", `${target.nodePackage}@${version}`], scratch).trim();
    run("tar", ["-xzf", tarball, `package/${target.nodeBinary}`], scratch);
    mkdirSync(path.join(scratch, "out"));
    renameSync(
      path.join(scratch, "package", target.nodeBinary),
      path.join(scratch, "out", path.basename(binary)),
    );
    rmSync(dir, { recursive: true, force: true });
    // Whole or not at all: a second build never sees half a binary.
    renameSync(path.join(scratch, "out"), dir);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return binary;
}

/** What `buildExecutable` needs besides the target. */
export interface ExecutableBuild {
  /** The plugin's bundle (bundle.ts). */
  bundle: string;
  /** The target's Node.js binary (nodeBinaryFor). */
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
    const config = {
      main: build.bundle,
      output: blob,
      disableExperimentalSEAWarning: true,
      useCodeCache: target.name === hostTarget(),
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
