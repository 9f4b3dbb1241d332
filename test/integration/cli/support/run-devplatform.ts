/**
 * Runs the `devplatform` command as a child process, the way a user runs it: from the sources,
 * through tsx's loader in one Node.js process (`node --import tsx cli/main.ts …`).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";

const repoRoot = path.resolve(__dirname, "../../../..");

/** tsx's loader by URL, so that it is found whatever the child's working directory. */
const TSX_LOADER = pathToFileURL(path.join(repoRoot, "node_modules/tsx/dist/loader.mjs")).href;

/** What a run printed and how it ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of one run. */
export interface RunOptions {
  /** The environment variables, added to a copy of this process's environment without `DEVPLATFORM_*`. */
  env?: Record<string, string>;
  /** Text written to standard input (then closed); stdin is empty otherwise. */
  stdin?: string;
  cwd?: string;
}

/** Runs `devplatform …args` to completion. */
export async function runDevplatform(args: string[], options: RunOptions = {}): Promise<CliRun> {
  // The caller's DEVPLATFORM_* variables must not leak into a test of missing credentials.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith("DEVPLATFORM_")),
  );
  const child = spawn(
    process.execPath,
    ["--import", TSX_LOADER, path.join(repoRoot, "cli/main.ts"), ...args],
    {
      cwd: options.cwd ?? repoRoot,
      env: { ...env, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(options.stdin ?? "");
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stdout, stderr };
}

/** The environment of a run against an emulator with its default credentials. */
export function credentialsFor(url: string, secret = "demo-secret"): Record<string, string> {
  return {
    DEVPLATFORM_BASE_URL: url,
    DEVPLATFORM_CLIENT_ID: "demo-client",
    DEVPLATFORM_CLIENT_SECRET: secret,
  };
}
