/**
 * The emulator's command line, shared by the `devplatform-emulator` bin (`cli.ts`) and by
 * `devplatform emulator`, so that both behave the same: `--help` on stdout (exit 0), a usage error on
 * stderr with the usage (exit 2), then the listening URL as the first stdout line, and SIGTERM or
 * SIGINT stop it cleanly (state file written) with exit code 0.
 */
import { CliUsageError, parseCliArgs, usage, type CliCommand } from "./cli-args";
import { startEmulator } from "./start";

// If close() hangs on a stuck connection, exit anyway rather than ignore the signal.
const SHUTDOWN_GRACE_MS = 5000;

function commandOrExit(args: string[], program: string): Extract<CliCommand, { help: false }> {
  try {
    const command = parseCliArgs(args);
    if (command.help) {
      process.stdout.write(usage(program));
      process.exit(0);
    }
    return command;
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    process.stderr.write(`${program}: ${error.message}\n\n${usage(program)}`);
    process.exit(2);
  }
}

/**
 * Runs the emulator until a signal stops it. `program` is how the user ran it, for messages; the
 * listening line always reads `devplatform-emulator listening on …`, which scripts look for.
 */
export async function runEmulatorCli(args: string[], program = "devplatform-emulator"): Promise<void> {
  try {
    const { options } = commandOrExit(args, program);
    const emulator = await startEmulator(options);
    process.stdout.write(`devplatform-emulator listening on ${emulator.url}\n`);
    let stopping = false;
    const shutdown = (signal: NodeJS.Signals): void => {
      if (stopping) return;
      stopping = true;
      process.stderr.write(`${program}: ${signal}, stopping\n`);
      setTimeout(() => process.exit(0), SHUTDOWN_GRACE_MS).unref();
      emulator.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`${program}: error while stopping: ${String(error)}\n`);
          process.exit(1);
        },
      );
    };
    process.on("SIGTERM", shutdown);
    process.on("SIGINT", shutdown);
  } catch (error) {
    process.stderr.write(`${program}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
