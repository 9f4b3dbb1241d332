/** Reading what an export wrote, and checking that no credential is anywhere in it. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import type { CliRun } from "./run-devplatform";

/** Every file of a directory tree by relative path. */
export function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  if (!existsSync(dir)) return files;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, full), readFileSync(full, "utf8"));
  }
  return files;
}

/** The file names of a directory, sorted. */
export function fileNames(dir: string): string[] {
  return readdirSync(dir).sort();
}

/** Asserts that no secret (client secret, issued access or refresh token) is in any output or file. */
export function expectNoSecrets(
  secrets: readonly string[],
  runs: readonly CliRun[],
  dirs: readonly string[],
): void {
  const texts = [
    ...runs.flatMap((run) => [run.stdout, run.stderr]),
    ...dirs.flatMap((dir) => [...readTree(dir).values()]),
  ];
  expect(secrets.length).toBeGreaterThan(0);
  for (const secret of secrets) {
    for (const text of texts)
      expect(text.includes(secret), `a secret leaked into: ${text.slice(0, 200)}`).toBe(false);
  }
}
