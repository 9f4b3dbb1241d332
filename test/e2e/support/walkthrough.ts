/**
 * A walkthrough of the docs, run as written: the shell blocks that follow a
 * `<!-- walkthrough:NAME -->` mark in a Markdown file, read from the file itself (never copied into
 * a test), joined into one bash script (`set -euo pipefail`), each command timed as one step.
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

/** A walkthrough's run: its exit code, its output, and each command's seconds. */
export interface WalkthroughRun {
  code: number | null;
  output: string;
  /** Each command (its first line) and its seconds. */
  steps: { first: string; seconds: number }[];
}

/** The commands of a block: one per line, a line ending in `\` joined with the next. */
export function commandsOf(block: string): string[] {
  const commands: string[] = [];
  let current = "";
  for (const line of block.split("\n")) {
    current = current === "" ? line : `${current}\n${line}`;
    if (!line.endsWith("\\")) {
      if (current.trim() !== "") commands.push(current);
      current = "";
    }
  }
  if (current.trim() !== "") commands.push(current);
  return commands;
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
  const commands = blocks.flatMap((block) => commandsOf(block.commands));
  const script = commands
    .map((command, i) => {
      let text = command;
      for (const [from, to] of Object.entries(rewrite)) text = text.split(from).join(to);
      return `echo "${STEP}${i} $(date +%s%N)"\n${text}`;
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
        first: commands[Number(mark.step)]?.split("\n")[0] ?? "",
        seconds: Math.round(((marks[i + 1]?.at ?? mark.at) - mark.at) * 10) / 10,
      }));
      resolve({ code, output, steps });
    });
  });
}
