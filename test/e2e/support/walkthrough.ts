/**
 * A walkthrough of the docs, run as written: the shell blocks that follow a
 * `<!-- walkthrough:NAME -->` mark in a Markdown file, read from the file itself (never copied into
 * a test), joined into one bash script (`set -euo pipefail`), each block timed as one step.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

/** One marked block: its walkthrough's name and its commands. */
export interface WalkthroughBlock {
  name: string;
  commands: string;
}

/** The marked ```sh blocks of `markdown`, in order. */
export function walkthroughBlocks(markdown: string): WalkthroughBlock[] {
  const blocks: WalkthroughBlock[] = [];
  const mark = /<!-- walkthrough:([a-z-]+) -->\s*\n\s*```sh\n([\s\S]*?)\n```/g;
  for (const match of markdown.matchAll(mark))
    blocks.push({ name: match[1] as string, commands: match[2] as string });
  return blocks;
}

/** The blocks of the named walkthroughs in `file`, in the file's order. */
export function walkthrough(file: string, names: string[]): WalkthroughBlock[] {
  return walkthroughBlocks(readFileSync(file, "utf8")).filter((block) => names.includes(block.name));
}

/** A walkthrough's run: its exit code, its output, and each block's seconds. */
export interface WalkthroughRun {
  code: number | null;
  output: string;
  steps: { first: string; seconds: number }[];
}

const STEP = "::walkthrough-step::";

/**
 * Runs `blocks` in one bash in `cwd` with `env`, after replacing each `from` of `rewrite` with its
 * `to` (named in the test that asks). Whatever the script left running in the background (a
 * server) is ended with its process group.
 */
export function runWalkthrough(
  blocks: WalkthroughBlock[],
  cwd: string,
  env: Record<string, string>,
  rewrite: Record<string, string> = {},
): Promise<WalkthroughRun> {
  const script = blocks
    .map((block, i) => {
      let commands = block.commands;
      for (const [from, to] of Object.entries(rewrite)) commands = commands.split(from).join(to);
      return `echo "${STEP}${i} $(date +%s%N)"\n${commands}`;
    })
    .join("\n");
  const full = `set -euo pipefail\n${script}\necho "${STEP}end $(date +%s%N)"\n`;
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", full], {
      cwd,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
      } catch {
        // the group has ended already
      }
      const marks = [...output.matchAll(new RegExp(`${STEP}(\\S+) (\\d+)`, "g"))].map((m) => ({
        step: m[1] as string,
        at: Number(m[2]) / 1e9,
      }));
      const steps = marks.slice(0, -1).map((mark, i) => ({
        first: blocks[Number(mark.step)]?.commands.split("\n")[0] ?? "",
        seconds: Math.round(((marks[i + 1]?.at ?? mark.at) - mark.at) * 10) / 10,
      }));
      resolve({ code, output, steps });
    });
  });
}
