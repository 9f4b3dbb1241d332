/**
 * Follows examples/fleet-repo/README.md's "Before the first run" as written, in a copy of the
 * repository: its shell blocks, run in order with bash, with only the placeholders a team fills in
 * replaced (where the package's tarball is, the backend and its credentials). The README is the
 * script: a step it gets wrong fails the GitOps tests' setup.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const readme = path.resolve(__dirname, "../../../../examples/fleet-repo/README.md");
/** Where the README's step 2 says the tarball of a checkout is. */
const TARBALL_PLACEHOLDER = "/path/to/pulumi-devplatform/pulumi-devplatform-0.1.0.tgz";

export interface ReadmeInputs {
  /** The package's tarball (`npm pack` of this checkout), as step 2's `cp` takes it. */
  tarball: string;
  /** What the README's `export` lines set, by name; every name they set must be here. */
  exports: Record<string, string>;
  /** The shell's environment beyond this process's (PATH with the Pulumi CLI, PULUMI_HOME, …). */
  env: NodeJS.ProcessEnv;
}

/** The `sh` blocks of the README's "Before the first run" section, in order. */
export function readmeSetupBlocks(text = readFileSync(readme, "utf8")): string[] {
  const start = text.indexOf("## Before the first run");
  const end = text.indexOf("\n## ", start + 1);
  if (start < 0 || end < 0) throw new Error('the README has no "Before the first run" section');
  const section = text.slice(start, end);
  return [...section.matchAll(/^( *)```sh\n([\s\S]*?)^\1```$/gmu)].map((m) =>
    (m[2] ?? "")
      .split("\n")
      .map((line) => line.slice((m[1] ?? "").length))
      .join("\n"),
  );
}

/** A block with its placeholders filled: the tarball's path, and each `export` line's values. */
export function fillPlaceholders(block: string, inputs: ReadmeInputs): string {
  return block
    .split("\n")
    .map((line) => {
      if (line.includes(TARBALL_PLACEHOLDER)) return line.replace(TARBALL_PLACEHOLDER, inputs.tarball);
      if (!line.startsWith("export ")) return line;
      const names = [...line.matchAll(/\b([A-Z_]+)=/gu)].map((m) => m[1] ?? "");
      return names
        .map((name) => {
          const value = inputs.exports[name];
          if (value === undefined) throw new Error(`the README exports ${name}, which the test does not set`);
          return `export ${name}=${JSON.stringify(value)}`;
        })
        .join("\n");
    })
    .join("\n");
}

/** Runs every setup block of the README in `repoDir`, in order; the blocks' output. */
export function followReadme(repoDir: string, inputs: ReadmeInputs): string {
  const blocks = readmeSetupBlocks();
  if (blocks.length < 2) throw new Error(`the README's setup has ${blocks.length} shell blocks, not 2`);
  return blocks
    .map((block) =>
      execFileSync("bash", ["-euo", "pipefail", "-c", fillPlaceholders(block, inputs)], {
        cwd: repoDir,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, ...inputs.env },
      }),
    )
    .join("");
}
