/**
 * Reproducible archives (reproducible-builds.org): the same sources give the same bytes on any
 * machine and at any time. The tar's entries have a fixed owner (0:0, no names), mode 0755 and
 * modification time (`SOURCE_DATE_EPOCH`, else the commit's time), entries sorted, ustar format; the
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

/** One ustar header block (POSIX), numbers in octal: the fields an archive of plain files needs. */
function ustarHeader(name: string, size: number, mtime: number): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`${name}: a name of more than 100 bytes`);
  const header = Buffer.alloc(512);
  const octal = (value: number, offset: number, width: number) =>
    header.write(`${value.toString(8).padStart(width - 1, "0")}\0`, offset, "ascii");
  header.write(name, 0, "utf8");
  octal(0o755, 100, 8); // mode
  octal(0, 108, 8); // uid
  octal(0, 116, 8); // gid
  octal(size, 124, 12);
  octal(mtime, 136, 12);
  header.write("        ", 148, "ascii"); // the checksum counts itself as spaces
  header.write("0", 156, "ascii"); // a regular file
  header.write("ustar\0" + "00", 257, "ascii");
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return header;
}

/**
 * Writes `archive`: the files `names` of `dir`, sorted, as a reproducible `.tar.gz`. The tar is
 * written here rather than by `tar`, whose options for this differ between GNU tar and macOS's.
 */
export function writeReproducibleArchive(archive: string, dir: string, names: string[], epoch: number): void {
  const blocks: Buffer[] = [];
  for (const name of [...names].sort()) {
    const data = readFileSync(path.join(dir, name));
    blocks.push(ustarHeader(name, data.length, epoch), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024)); // the end: two zero blocks
  // zlib writes no name, time 0 and the same OS byte: the header is fixed.
  writeFileSync(archive, gzipSync(Buffer.concat(blocks)));
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
