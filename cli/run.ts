/**
 * The `devplatform` command: dispatches to a subcommand and turns failures into exit codes — 2 with
 * the usage for a command line that cannot run, 1 with one message for an expected failure, and a
 * stack trace only for an unexpected error (a bug worth reporting).
 */
import { runEmulatorCli } from "../emulator/cli-main";
import { pinSecret, redactText } from "../sdk/redact";
import { CommandFailure, EXIT_FAILURE, EXIT_USAGE, UsageError } from "./errors";
import { readProcessStdin } from "./export/credentials";
import { runExport } from "./export/run-export";
import { readPackageInfo } from "../provider/shared/package-info";
import { runDriftIssue } from "./review/drift-issue-command";
import { runPrComment } from "./review/pr-comment-command";
import { runPrSummary } from "./review/pr-summary-command";

/** `devplatform --help`. */
export const USAGE = `Usage: devplatform <command> [options]

Commands:
  export       write a Pulumi TypeScript project declaring a live fleet: its devices,
               and optionally its RPS records and device configuration
  emulator     run a local emulator of the device platform's HTTP API
  pr-summary   one Markdown comment for a stack from its \`pulumi preview --json\`
  pr-comment   create or update a stack's comment on a pull request
  drift-issue  open, update or close a stack's drift issue from its preview

Run "devplatform <command> --help" for a command's options.

Options:
  -h, --help  print this text
  --version   print the version
`;

/**
 * `stream` with every text written to it redacted whole (the command's output is the package's last
 * boundary): the export's summary, the review's Markdown, what a command prints.
 */
export function redactingStream<S extends NodeJS.WritableStream>(stream: S): S {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  return new Proxy(stream, {
    get(target, property) {
      if (property === "write")
        return (chunk: unknown, ...rest: unknown[]) =>
          write(typeof chunk === "string" ? redactText(chunk) : chunk, ...rest);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The subcommand named by `args[0]`, or what to print instead. */
async function dispatch(args: readonly string[]): Promise<number | "running"> {
  const stdout = redactingStream(process.stdout);
  const stderr = redactingStream(process.stderr);
  const [command, ...rest] = args;
  if (command === undefined) throw new UsageError("a command is required", USAGE);
  if (command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command === "--version") {
    process.stdout.write(`${readPackageInfo().version}\n`);
    return 0;
  }
  if (command === "emulator") {
    // The emulator's own command line, unchanged: it prints its usage, handles signals and exits.
    await runEmulatorCli([...rest], "devplatform emulator");
    return "running";
  }
  if (command === "export") {
    return runExport(rest, {
      env: process.env,
      stdout,
      stderr,
      cwd: process.cwd(),
      readSecret: readProcessStdin,
    });
  }
  if (command === "pr-summary") return runPrSummary(rest, stdout);
  if (command === "pr-comment") return runPrComment(rest, process.env, stdout);
  if (command === "drift-issue") return runDriftIssue(rest, process.env, stdout);
  const what = command.startsWith("-") ? `unknown option "${command}"` : `unknown command "${command}"`;
  throw new UsageError(what, USAGE);
}

/** Runs the command line (without `node` and the script); sets `process.exitCode` when it is done. */
export async function runDevplatform(args: readonly string[]): Promise<void> {
  const program = args[0] === "export" ? "devplatform export" : "devplatform";
  // The client secret a job holds, known before any command runs: whatever prints or posts it — an
  // echo in a preview's diagnostics quoted by the review summary — shows [REDACTED] instead.
  pinSecret(process.env.DEVPLATFORM_CLIENT_SECRET);
  // The SDK already keeps credentials out of its errors; this is the last line of defence for any
  // other message (it removes every secret and token the SDK handled in this process).
  const write = (text: string) => process.stderr.write(redactText(text));
  try {
    const result = await dispatch(args);
    if (result !== "running") process.exitCode = result;
  } catch (error) {
    if (error instanceof UsageError) {
      const hint = error.usage ? `\n\n${error.usage}` : "";
      write(`${program}: ${error.message}${hint}${hint ? "" : "\n"}`);
      process.exitCode = EXIT_USAGE;
    } else if (error instanceof CommandFailure) {
      write(`${program}: error: ${error.message}\n`);
      process.exitCode = EXIT_FAILURE;
    } else {
      write(
        `${program}: unexpected error (please report it):\n${(error as Error)?.stack ?? String(error)}\n`,
      );
      process.exitCode = EXIT_FAILURE;
    }
  }
}
