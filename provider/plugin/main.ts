/**
 * `pulumi-resource-devplatform`: the provider plugin's process. Plugin protocol: the engine
 * starts it with its own address as the last argument (after flags such as `--logtostderr`); the
 * plugin serves `pulumirpc.ResourceProvider` on a loopback port and prints the port as the first
 * line of stdout; it exits when the engine goes away.
 */
import { exitWhenEngineGone } from "../deployment/engine-watch";
import { setDefaultLogSink } from "../output/log";
import { engineLogSink } from "./server/engine-log";
import { PLUGIN_VERSION, serve, setEngineAddress } from "./server/service";

/** The engine's address: the last argument that is not a flag. */
export function engineAddressOf(args: readonly string[]): string {
  return args.filter((arg) => !arg.startsWith("-")).at(-1) ?? "";
}

async function main(args: readonly string[]): Promise<void> {
  if (args.includes("--version") || args.includes("-version")) {
    process.stdout.write(`${PLUGIN_VERSION}\n`);
    return;
  }
  setEngineAddress(engineAddressOf(args));
  // A message outside any request (none is expected) goes to the engine too, never through
  // `@pulumi/pulumi`'s log, which this process does not load.
  setDefaultLogSink(engineLogSink(""));
  const { port, server } = await serve();
  process.stdout.write(`${port}\n`);
  const stop = () => {
    server.forceShutdown();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // Work for an engine that is gone would be recorded nowhere: stop with it.
  exitWhenEngineGone();
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `pulumi-resource-devplatform: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
