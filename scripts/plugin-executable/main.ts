/**
 * `npm run plugin:archive -- OUT_DIR [--targets linux-amd64,linux-arm64,windows-amd64|all]`: the
 * plugin's release archives, `pulumi-resource-devplatform-v<version>-<os>-<arch>.tar.gz`, each
 * holding one self-contained executable at its top, as `pulumi plugin install` and the engine's
 * automatic acquisition expect. Prints each archive's path.
 *
 * Archives are cached under the provisioning cache, keyed by the hash of the bundle, the Node.js
 * release and these scripts: a second build of unchanged sources (the e2e suite's) copies them.
 */
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { bundlePlugin } from "./bundle";
import { buildExecutable, nodeBinaryFor } from "./sea";
import { hostTarget, targetsNamed, TARGETS, type Target } from "./targets";

const repoRoot = path.resolve(__dirname, "../..");
/** The Node.js release inside the executables: the one scripts/provision-node.sh pins. */
const NODE_VERSION = process.env.DEVPLATFORM_NODE_VERSION ?? "22.23.3";
/** How many source versions of archives the cache keeps. */
const CACHE_KEEP = 3;

function log(message: string): void {
  process.stderr.write(`[plugin-archive] ${message}\n`);
}

/** The archive's file name, as Pulumi spells it. */
export function archiveName(version: string, target: Target): string {
  return `pulumi-resource-devplatform-v${version}-${target.name}.tar.gz`;
}

function parseArgs(args: string[]): { outDir: string; targets: Target[] } {
  let outDir = repoRoot;
  let spec = "all";
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--targets") spec = args[++i] ?? "";
    else if (arg.startsWith("--targets=")) spec = arg.slice("--targets=".length);
    else if (arg.startsWith("-")) throw new Error(`unknown option ${arg} (--targets LIST)`);
    else outDir = path.resolve(arg);
  }
  return { outDir, targets: targetsNamed(spec) };
}

function hashOf(files: string[], extra: string): string {
  const hash = createHash("sha256").update(extra);
  for (const file of files) hash.update(readFileSync(file));
  return hash.digest("hex").slice(0, 16);
}

/** Drops all but the newest few source versions from the cache. */
function pruneCache(root: string): void {
  const entries = readdirSync(root)
    .filter((name) => !name.startsWith("."))
    .map((name) => ({ dir: path.join(root, name), mtime: statSync(path.join(root, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { dir } of entries.slice(CACHE_KEEP)) rmSync(dir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const { outDir, targets } = parseArgs(process.argv.slice(2));
  const version = (
    JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }
  ).version;
  const cacheRoot =
    process.env.DEVPLATFORM_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), ".cache"), "pulumi-devplatform");
  const archivesRoot = path.join(cacheRoot, "plugin-archives");
  mkdirSync(archivesRoot, { recursive: true });
  mkdirSync(outDir, { recursive: true });

  const scratch = mkdtempSync(path.join(archivesRoot, ".build-"));
  try {
    const bundle = path.join(scratch, "plugin.js");
    const report = await bundlePlugin(bundle, version);
    log(`bundled the plugin: ${(report.bytes / 1e6).toFixed(1)} MB`);
    const scripts = ["bundle.ts", "sea.ts", "targets.ts", "main.ts"].map((f) => path.join(__dirname, f));
    const key = hashOf([bundle, ...scripts], `node ${NODE_VERSION}`);
    const cached = path.join(archivesRoot, key);
    mkdirSync(cached, { recursive: true });

    const host = TARGETS.find((t) => t.name === hostTarget());
    if (host === undefined)
      throw new Error(`cannot build on ${hostTarget()}: one of ${TARGETS.map((t) => t.name).join(", ")}`);
    const hostNode = nodeBinaryFor(host, NODE_VERSION, cacheRoot);
    for (const target of targets) {
      const name = archiveName(version, target);
      const archive = path.join(cached, name);
      if (existsSync(archive)) {
        log(`${name}: unchanged sources, from the cache`);
      } else {
        log(`${name}: building the executable`);
        const targetNode = nodeBinaryFor(target, NODE_VERSION, cacheRoot);
        const executable = buildExecutable(target, { bundle, targetNode, hostNode, outDir: scratch });
        execFileSync("tar", ["-czf", `${archive}.tmp`, "-C", path.dirname(executable), target.executable]);
        renameSync(`${archive}.tmp`, archive);
      }
      const out = path.join(outDir, name);
      copyFileSync(archive, `${out}.tmp`);
      renameSync(`${out}.tmp`, out);
      log(`wrote ${out} (${(statSync(out).size / 1e6).toFixed(1)} MB)`);
      process.stdout.write(`${out}\n`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    pruneCache(archivesRoot);
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
