/** Runs the emulator CLI the way a user does, through `scripts/with-node.sh npx tsx emulator/cli.ts`. */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";

const repoRoot = path.resolve(__dirname, "../../../..");

/** A running CLI process. */
export interface CliProcess {
  child: ChildProcess;
  /** The first line it printed on stdout. */
  firstLine: string;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code and signal once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `command` (relative to the repository) and waits for its first stdout line; rejects with
 * its stderr when it exits before printing one.
 */
export async function startProcess(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<CliProcess> {
  const child = spawn(command, args, { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const firstLine = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    void exited.then(({ code }) =>
      reject(new Error(`${command} exited (${code}) before printing: ${stderr}`)),
    );
  });
  return { child, firstLine, stderr: () => stderr, exited };
}

/**
 * Starts the CLI and waits for its first stdout line. npm runs `npx` commands through
 * `script-shell`; with the default `sh` a SIGTERM to npm kills the shell and orphans tsx, so bash is
 * chosen (it execs the single command, letting the signal reach tsx, which relays it to the CLI).
 */
export function startCli(args: string[]): Promise<CliProcess> {
  return startProcess("scripts/with-node.sh", ["npx", "tsx", "emulator/cli.ts", ...args], {
    ...process.env,
    npm_config_script_shell: "/bin/bash",
  });
}

/** Runs the CLI to completion; returns its exit code and output. */
export async function runCli(
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn("scripts/with-node.sh", ["npx", "tsx", "emulator/cli.ts", ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { code, stdout, stderr };
}
