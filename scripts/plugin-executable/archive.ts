/**
 * Reproducible archives (reproducible-builds.org): the same sources give the same bytes on any
 * machine and at any time. The tar's one entry has a fixed owner (0:0, no names), mode 0755 and
 * modification time (`SOURCE_DATE_EPOCH`, else the commit's time), entries sorted, GNU format; the
 * gzip stream is Node.js's zlib (the pinned release's, so the same on every machine) with no name
 * and no time in its header.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/**
 * The time every archive entry carries, in seconds: `SOURCE_DATE_EPOCH` when set, else the time of
 * the commit checked out in `repoRoot`, else 0 (no git).
 */
export function sourceDateEpoch(repoRoot: string, env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = env.SOURCE_DATE_EPOCH;
  if (fromEnv !== undefined && fromEnv !== "") {
    if (!/^\d+$/.test(fromEnv)) throw new Error(`SOURCE_DATE_EPOCH must be whole seconds, not ${fromEnv}`);
    return Number(fromEnv);
  }
  try {
    const out = execFileSync("git", ["log", "-1", "--format=%ct"], {
      cwd: repoRoot,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return /^\d+$/.test(out) ? Number(out) : 0;
  } catch {
    return 0;
  }
}

/** Writes `archive`: the files `names` of `dir` as a reproducible `.tar.gz`. */
export function writeReproducibleArchive(archive: string, dir: string, names: string[], epoch: number): void {
  const tar = execFileSync(
    "tar",
    [
      "--create",
      "--format=gnu",
      "--sort=name",
      `--mtime=@${epoch}`,
      "--owner=0",
      "--group=0",
      "--numeric-owner",
      "--mode=go-w,a+rX",
      "--directory",
      dir,
      "--file=-",
      ...[...names].sort(),
    ],
    { maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "pipe"] },
  );
  // zlib writes no name, time 0 and the same OS byte: the header is fixed.
  writeFileSync(archive, gzipSync(tar));
}

/** The sha256 of a file, in hex. */
export function sha256Of(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/**
 * Writes the checksums file `name` in `dir` for `archives` (their paths), in `sha256sum`'s format,
 * sorted by name, so that `sha256sum -c NAME` in that directory checks them.
 */
export function writeChecksums(dir: string, name: string, archives: string[]): string {
  const file = path.join(dir, name);
  const lines = archives
    .map((archive) => `${sha256Of(archive)}  ${path.basename(archive)}`)
    .sort((a, b) => a.slice(66).localeCompare(b.slice(66)));
  writeFileSync(file, lines.map((line) => `${line}\n`).join(""));
  return file;
}
