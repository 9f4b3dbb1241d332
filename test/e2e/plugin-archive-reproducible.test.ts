/**
 * Reproducible archives: two builds of one commit, into two directories, give the same bytes, so
 * anyone can rebuild a release's archive from its source and check it against the checksums file.
 * One target (linux-amd64) keeps the cost to one build: the first build may come from the archive
 * cache (made by an earlier build of the same sources, as the release test's is), the second is
 * built anew (`--fresh`). Each archive holds its one executable owned by 0:0 with the commit's
 * time, its gzip header names no file and no time, and the checksums file lists every archive.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { e2e } from "./support/e2e-context";

const repoRoot = path.resolve(__dirname, "../..");
const VERSION = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string })
  .version;
const ARCHIVE = `pulumi-resource-devplatform-v${VERSION}-linux-amd64.tar.gz`;
const CHECKSUMS = `pulumi-resource-devplatform-v${VERSION}-checksums.txt`;

function run(command: string, args: string[], cwd = repoRoot): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** Builds the linux-amd64 archive into a new directory; returns the directory. */
function build(name: string, ...flags: string[]): string {
  const dir = mkdtempSync(path.join(e2e().workDir, `${name}-`));
  const printed = run("bash", [
    "scripts/plugin-archive.sh",
    dir,
    "--targets",
    "linux-amd64",
    ...flags,
  ]).trim();
  expect(printed).toBe(path.join(dir, ARCHIVE));
  return dir;
}

describe("the plugin archive, built twice from one commit", () => {
  it("has the same bytes, fixed metadata and a checksums file that checks it", () => {
    const first = build("archive-a");
    const second = build("archive-b", "--fresh");
    const bytes = (dir: string) => readFileSync(path.join(dir, ARCHIVE));
    expect(bytes(second).equals(bytes(first))).toBe(true);

    const commitTime = Number(run("git", ["log", "-1", "--format=%ct"]).trim());
    const listing = run(
      "env",
      ["TZ=UTC", "tar", "--list", "--verbose", "--numeric-owner", "--full-time", "-zf", ARCHIVE],
      second,
    );
    const [mode, owner, , date, time, name] = listing.trim().split(/\s+/);
    expect({ mode, owner, name }).toEqual({
      mode: "-rwxr-xr-x",
      owner: "0/0",
      name: "pulumi-resource-devplatform",
    });
    expect(Date.parse(`${date}T${time}Z`) / 1000).toBe(commitTime);
    const header = bytes(second).subarray(0, 10);
    expect(header.readUInt32LE(4)).toBe(0); // no time
    expect((header[3] ?? 0) & 0x08).toBe(0); // no file name

    expect(readdirSync(second).sort()).toEqual([ARCHIVE, CHECKSUMS].sort());
    expect(readFileSync(path.join(second, CHECKSUMS), "utf8")).toMatch(
      new RegExp(`^[0-9a-f]{64}  ${ARCHIVE.replace(/\./g, "\\.")}\\n$`),
    );
    expect(run("sha256sum", ["-c", CHECKSUMS], second)).toBe(`${ARCHIVE}: OK\n`);
  });
});
