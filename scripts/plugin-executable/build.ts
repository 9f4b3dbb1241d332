/**
 * The plugin's release archives, `pulumi-resource-devplatform-v<version>-<os>-<arch>.tar.gz`, each
 * holding one self-contained executable at its top, as `pulumi plugin install` and the engine's
 * automatic acquisition expect, and the checksums file of every archive of the version in the
 * output directory. Reproducible: the same commit gives the same bytes (archive.ts).
 *
 * Archives are cached under the provisioning cache, keyed by the hash of the bundle, the runtimes'
 * releases, the archive time and these scripts: a second build of unchanged sources (the e2e
 * suite's) copies them, unless `fresh`.
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
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { sourceDateEpoch, writeChecksums, writeReproducibleArchive } from "./archive";
import { bundlePlugin } from "./bundle";
import { buildBunExecutable } from "./bun";
import { verifyMachoSignature } from "./macho";
import { signAdHoc } from "./macho-sign";
import { runtimeBinaryFor } from "./runtime-binaries";
import { buildExecutable } from "./sea";
import { bunTargetOf, hostTarget, TARGETS, type Target } from "./targets";

const repoRoot = path.resolve(__dirname, "../..");
/** The Node.js release inside the Node.js executables: the one scripts/provision-node.sh pins. */
export const NODE_VERSION = process.env.DEVPLATFORM_NODE_VERSION ?? "22.23.3";
/** The Bun release inside the Bun executables (the macOS ones). */
export const BUN_VERSION = "1.4.5";
/** How many source versions of archives the cache keeps. */
const CACHE_KEEP = 3;
/** Bun's package suffix for the machines that build. */
const BUN_HOSTS: Record<string, string> = {
  "linux-amd64": "linux-x64",
  "linux-arm64": "linux-aarch64",
  "darwin-amd64": "darwin-x64",
  "darwin-arm64": "darwin-aarch64",
};

function log(message: string): void {
  process.stderr.write(`[plugin-archive] ${message}\n`);
}

/** The archive's file name, as Pulumi spells it. */
export function archiveName(version: string, target: Target): string {
  return `pulumi-resource-devplatform-v${version}-${target.name}.tar.gz`;
}

/** The checksums file's name: every archive of `version`, `sha256sum -c` style. */
export function checksumsName(version: string): string {
  return `pulumi-resource-devplatform-v${version}-checksums.txt`;
}

/** The package's version: the plugin's. */
export function pluginVersion(): string {
  return (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string })
    .version;
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

/** The provisioning cache (`DEVPLATFORM_CACHE`, else `~/.cache/pulumi-devplatform`). */
export function cacheRoot(): string {
  return (
    process.env.DEVPLATFORM_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), ".cache"), "pulumi-devplatform")
  );
}

/** Builds `target`'s executable into `scratch` and returns its path. */
function buildTarget(target: Target, bundle: string, scratch: string, cache: string): string {
  const host = hostTarget();
  if (target.runtime === "bun") {
    const suffix = BUN_HOSTS[host];
    if (suffix === undefined) throw new Error(`cannot build Bun executables on ${host}`);
    const hostBun = runtimeBinaryFor(bunTargetOf(host, suffix), BUN_VERSION, cache);
    const targetBun = runtimeBinaryFor(target, BUN_VERSION, cache);
    const executable = buildBunExecutable(target, { bundle, targetBun, hostBun, outDir: scratch });
    const arch = target.name.split("-")[1];
    if (target.name.startsWith("darwin-") && (arch === "amd64" || arch === "arm64")) {
      let binary: Buffer = readFileSync(executable);
      try {
        verifyMachoSignature(binary, arch);
      } catch (error) {
        log(`${target.name}: ${error instanceof Error ? error.message : String(error)}; signing ad hoc`);
        binary = signAdHoc(binary, target.executable);
        writeFileSync(executable, binary);
      }
      const signature = verifyMachoSignature(binary, arch);
      log(`${target.name}: ${signature.adhoc ? "ad-hoc " : ""}signature verified, ${signature.pages} pages`);
    }
    return executable;
  }
  const hostNodeTarget = TARGETS.find((t) => t.name === host && t.runtime === "node");
  if (hostNodeTarget === undefined) throw new Error(`cannot build Node.js executables on ${host}`);
  const hostNode = runtimeBinaryFor(hostNodeTarget, NODE_VERSION, cache);
  const targetNode = runtimeBinaryFor(target, NODE_VERSION, cache);
  return buildExecutable(target, { bundle, targetNode, hostNode, outDir: scratch });
}

/** What {@link buildArchives} builds. */
export interface ArchiveBuild {
  outDir: string;
  targets: readonly Target[];
  /** Build even when the cache has the archive (what the reproducibility test needs). */
  fresh?: boolean;
}

/** Writes the archives of `targets` and the checksums file into `outDir`; returns the archives' paths. */
export async function buildArchives({ outDir, targets, fresh = false }: ArchiveBuild): Promise<string[]> {
  const version = pluginVersion();
  const cache = cacheRoot();
  const archivesRoot = path.join(cache, "plugin-archives");
  mkdirSync(archivesRoot, { recursive: true });
  mkdirSync(outDir, { recursive: true });
  const epoch = sourceDateEpoch(repoRoot);
  const written: string[] = [];
  const scratch = mkdtempSync(path.join(archivesRoot, ".build-"));
  try {
    const bundle = path.join(scratch, "plugin.js");
    const report = await bundlePlugin(bundle, version);
    log(`bundled the plugin: ${(report.bytes / 1e6).toFixed(1)} MB; archive time ${epoch}`);
    const scripts = readdirSync(__dirname)
      .filter((f) => f.endsWith(".ts"))
      .sort()
      .map((f) => path.join(__dirname, f));
    const key = hashOf([bundle, ...scripts], `node ${NODE_VERSION} bun ${BUN_VERSION} time ${epoch}`);
    const cached = path.join(archivesRoot, key);
    mkdirSync(cached, { recursive: true });
    for (const target of targets) {
      const name = archiveName(version, target);
      const archive = path.join(cached, `${target.runtime}-${name}`);
      if (existsSync(archive) && !fresh) {
        log(`${name}: unchanged sources, from the cache`);
      } else {
        log(`${name}: building the executable (${target.runtime})`);
        const executable = buildTarget(target, bundle, scratch, cache);
        writeReproducibleArchive(`${archive}.tmp`, path.dirname(executable), [target.executable], epoch);
        renameSync(`${archive}.tmp`, archive);
      }
      const out = path.join(outDir, name);
      copyFileSync(archive, `${out}.tmp`);
      renameSync(`${out}.tmp`, out);
      log(`wrote ${out} (${(statSync(out).size / 1e6).toFixed(1)} MB)`);
      written.push(out);
    }
    const all = readdirSync(outDir)
      .filter((f) => f.startsWith(`pulumi-resource-devplatform-v${version}-`) && f.endsWith(".tar.gz"))
      .map((f) => path.join(outDir, f));
    log(`wrote ${writeChecksums(outDir, checksumsName(version), all)} (${all.length} archives)`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    pruneCache(archivesRoot);
  }
  return written;
}
