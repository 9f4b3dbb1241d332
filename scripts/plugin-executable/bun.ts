/**
 * An executable made with Bun (`bun build --compile`), for the targets Node.js's binaries cannot
 * serve here (targets.ts says why): the plugin's bundle compiled into Bun's official binary for the
 * target, which Bun itself takes from `--compile-executable-path` (the registry's
 * `@oven/bun-<os>-<arch>`, runtime-binaries.ts) and, for macOS, signs ad hoc as it writes it.
 *
 * Bun replaces a CommonJS module's free `__dirname`/`__filename` with the build's absolute paths;
 * the bundle is wrapped so that they are bound to the executable's own (as Node.js's single
 * executable application binds them), and no build path ends up in the executable.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { run } from "./runtime-binaries";
import type { Target } from "./targets";

/** What {@link buildBunExecutable} needs besides the target. */
export interface BunBuild {
  /** The plugin's bundle (bundle.ts). */
  bundle: string;
  /** The target's Bun binary (runtimeBinaryFor). */
  targetBun: string;
  /** A Bun binary of the same release that runs here, which compiles. */
  hostBun: string;
  /** Directory to write the executable into (under `<target>/`). */
  outDir: string;
}

/** Writes `target`'s executable into `outDir/<target>/` and returns its path. */
export function buildBunExecutable(target: Target, build: BunBuild): string {
  if (target.runtime !== "bun" || target.bunTarget === undefined)
    throw new Error(`${target.name} is not built with Bun`);
  const work = mkdtempSync(path.join(build.outDir, `.bun-${target.name}-`));
  try {
    const source = readFileSync(build.bundle, "utf8");
    const wrapped = [
      "(function (__filename, __dirname) {",
      source,
      '})(process.execPath, require("node:path").dirname(process.execPath));',
      "",
    ].join("\n");
    // The same relative name in every build: Bun records the entry's name in the executable.
    writeFileSync(path.join(work, "plugin.js"), wrapped);
    chmodSync(build.hostBun, 0o755);
    run(
      build.hostBun,
      [
        "build",
        "--compile",
        `--target=${target.bunTarget}`,
        `--compile-executable-path=${build.targetBun}`,
        "plugin.js",
        "--outfile",
        path.join("out", target.executable),
      ],
      work,
    );
    const out = path.join(build.outDir, target.name, target.executable);
    mkdirSync(path.dirname(out), { recursive: true });
    renameSync(path.join(work, "out", target.executable), out);
    chmodSync(out, 0o755);
    return out;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
