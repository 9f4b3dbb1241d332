#!/usr/bin/env node
/**
 * `devplatform-emulator`: runs the emulator until SIGTERM or SIGINT, which stop it cleanly (state
 * file written) with exit code 0. The first line on stdout is the listening URL, for scripts to read.
 */
import { CliUsageError, parseCliArgs, USAGE, type CliCommand } from "./cli-args";
import { startEmulator } from "./start";

// If close() hangs on a stuck connection, exit anyway rather than ignore the signal.
const SHUTDOWN_GRACE_MS = 5000;

function commandOrExit(): Extract<CliCommand, { help: false }> {
  try {
    const command = parseCliArgs(process.argv.slice(2));
    if (command.help) {
      process.stdout.write(USAGE);
      process.exit(0);
    }
    return command;
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    process.stderr.write(`devplatform-emulator: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const { options } = commandOrExit();
  const emulator = await startEmulator(options);
  process.stdout.write(`devplatform-emulator listening on ${emulator.url}\n`);
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`devplatform-emulator: ${signal}, stopping\n`);
    setTimeout(() => process.exit(0), SHUTDOWN_GRACE_MS).unref();
    emulator.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`devplatform-emulator: error while stopping: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`devplatform-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
