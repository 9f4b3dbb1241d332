/**
 * The runtimes' official binaries the executables are made of, taken from the npm registry
 * (`node-<os>-<arch>`, `@oven/bun-<os>-<arch>`) with `npm pack`, which checks the registry's
 * integrity hash (`npm install` would refuse another platform's package), and cached.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import type { Target } from "./targets";

/** Runs a build step; its chatter (postject's LIEF warnings, known to be harmless) is shown only when it fails. */
export function run(command: string, args: string[], cwd?: string): string {
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
 * The binary of `target`'s runtime at `version` (Node.js's or Bun's), fetched once into
 * `cacheRoot`.
 */
export function runtimeBinaryFor(target: Target, version: string, cacheRoot: string): string {
  const dir = path.join(cacheRoot, `${target.runtime}-bin-v${version}-${target.name}`);
  const binary = path.join(dir, path.basename(target.runtimeBinary));
  if (existsSync(binary)) return binary;
  mkdirSync(cacheRoot, { recursive: true });
  const scratch = mkdtempSync(path.join(cacheRoot, `.${target.runtime}-bin-${target.name}-`));
  try {
    const tarball = run("npm", ["pack", "--silent", `${target.runtimePackage}@${version}`], scratch).trim();
    run("tar", ["-xzf", tarball, `package/${target.runtimeBinary}`], scratch);
    mkdirSync(path.join(scratch, "out"));
    renameSync(
      path.join(scratch, "package", target.runtimeBinary),
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
