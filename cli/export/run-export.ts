/**
 * `devplatform export`: check the target, read the fleet, generate the project, write it atomically,
 * print what was done and what to run next. The order matters: everything that can be refused is
 * refused before the first request, and nothing is written before everything has been read.
 */
import { performance } from "node:perf_hooks";
import { baseUrlProblem, DevicePlatformClient, maskUrl } from "../../sdk";
import { CommandFailure, UsageError } from "../errors";
import { readPackageInfo } from "../../provider/shared/package-info";
import { Progress } from "../progress";
import { EXPORT_USAGE, parseExportArgs } from "./args";
import { groupConfigurations } from "./config-groups";
import { resolveCredentials, type Environment, type SecretReader } from "./credentials";
import { platformFailure } from "./platform-failure";
import { ownedDevices } from "./owners";
import { projectFiles } from "./project-files";
import { readFleet, type FleetSnapshot } from "./read-fleet";
import { RequestTally } from "./request-tally";
import { summaryText } from "./summary";
import { checkTarget, writeProjectAtomically } from "./write-project";

/** Devices whose configuration is read at once, and requests the client keeps in flight. */
const CONCURRENCY = 16;

/** The process around the command, passed in so tests can run it in-process too. */
export interface ExportIo {
  readonly env: Environment;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WriteStream;
  readonly cwd: string;
  readonly readSecret: SecretReader;
}

function createClient(
  baseUrl: string,
  clientId: string,
  clientSecret: string,
  apiVersion: "v1" | "v1.0",
  tally: RequestTally,
) {
  // The client applies the same rule; checked here first so the message names the variable and
  // shows the URL without the user-info or query a credential could hide in.
  const problem = baseUrlProblem(baseUrl);
  if (problem !== undefined) {
    throw new UsageError(
      `DEVPLATFORM_BASE_URL (or --base-url) "${maskUrl(baseUrl)}" cannot be used: baseUrl ${problem}`,
    );
  }
  try {
    return new DevicePlatformClient({
      baseUrl,
      clientId,
      clientSecret,
      apiVersion,
      concurrency: CONCURRENCY,
      onEvent: tally.listener,
    });
  } catch (error) {
    // The client checks the URL before sending anything (https unless loopback, no credentials in it).
    if (error instanceof TypeError) {
      throw new UsageError(
        `DEVPLATFORM_BASE_URL (or --base-url) "${maskUrl(baseUrl)}" cannot be used: ${error.message}`,
      );
    }
    throw error;
  }
}

function warn(io: ExportIo, message: string): void {
  io.stderr.write(`devplatform export: warning: ${message}\n`);
}

/**
 * Why an export with no device writes nothing. An inventory.csv with its header alone is what
 * `readInventory` refuses (a fleet read from it would remove every device it manages), so the
 * project would fail its first preview; and an empty result is more often a wrong application or
 * filter than a wish for an empty project. A project for devices still to come starts from a file
 * with their rows.
 */
function nothingToExport(filtered: boolean, listed: number): string {
  const why = filtered
    ? `none of the application's ${listed} devices matches --project/--tag`
    : `the application at these credentials has no device`;
  return (
    `no device to export: ${why}, and a project whose inventory.csv has its header alone would fail ` +
    "its first preview (readInventory refuses such a file: a fleet read from it would remove every device " +
    "it manages); nothing was written. Check the credentials and filters"
  );
}

/** Runs `export` with its arguments; resolves with the exit code or throws a UsageError/CommandFailure. */
export async function runExport(argv: readonly string[], io: ExportIo): Promise<number> {
  const args = parseExportArgs(argv);
  if ("help" in args) {
    io.stdout.write(EXPORT_USAGE);
    return 0;
  }
  const credentials = await resolveCredentials(args, io.env, io.readSecret);
  const targetState = await checkTarget(args.out, args.force);
  const packageInfo = readPackageInfo();
  const tally = new RequestTally();
  const { baseUrl, clientId } = credentials;
  const client = createClient(baseUrl, clientId, credentials.clientSecret, credentials.apiVersion, tally);
  const started = performance.now();
  let snapshot: FleetSnapshot;
  try {
    snapshot = await readFleet(client, {
      filter: { projects: args.projects, tags: args.tags },
      includeRps: args.includeRps,
      includeConfig: args.includeConfig,
      concurrency: CONCURRENCY,
      progress: new Progress({ stream: io.stderr }),
    });
  } catch (error) {
    throw platformFailure(error, { baseUrl, clientId }) ?? error;
  } finally {
    await client.close();
  }
  const filtered = args.projects.length > 0 || args.tags.length > 0;
  for (const warning of snapshot.warnings) warn(io, warning);
  if (snapshot.devices.length === 0) throw new CommandFailure(nothingToExport(filtered, snapshot.listed));
  if (filtered && snapshot.rps && snapshot.rps.length > 0) {
    warn(
      io,
      `RPS records have no project or tags: all ${snapshot.rps.length} are exported despite the filters`,
    );
  }
  const inventory = snapshot.devices.map((device) => device.entry);
  const owned = ownedDevices(snapshot.devices);
  const configGroups = snapshot.configurations && groupConfigurations(snapshot.configurations);
  let files: Map<string, string>;
  try {
    files = projectFiles({
      projectName: args.projectName,
      style: args.style,
      inventory,
      rps: snapshot.rps,
      configGroups,
      packageInfo,
      ...(args.takeOver && owned.stacks.length > 0 ? { takeOver: owned } : {}),
    });
  } catch (error) {
    // A platform value the data files cannot hold unchanged (a tag with ";" in it) is refused.
    throw new CommandFailure(`the fleet cannot be written as it is: ${(error as Error).message}`);
  }
  await writeProjectAtomically(args.out, files, targetState);
  io.stdout.write(
    summaryText({
      out: args.out,
      style: args.style,
      inventory,
      listed: snapshot.listed,
      filtered,
      rps: snapshot.rps,
      configGroups,
      files: [...files.keys()],
      requests: tally.describe(),
      requestCount: tally.total,
      seconds: (performance.now() - started) / 1000,
      baseUrl,
      clientId,
      apiVersion: credentials.apiVersionGiven ? credentials.apiVersion : undefined,
      cwd: io.cwd,
      owners: owned.counts,
      takeOver: args.takeOver,
    }),
  );
  return 0;
}
