/**
 * The one-owner record shared by the provider processes of one deployment.
 *
 * A deployment may run this provider in several processes at once: the dynamic provider host
 * (`pulumi-nodejs`) and one `pulumi-resource-devplatform` per provider instance. Moving a stack
 * from the dynamic resources to the plugin is the case that matters: the plugin process creates
 * the new resources (they adopt the devices, records and properties without a write), and the
 * dynamic host deletes the old ones at the end of the `up`. Each process's own record
 * (`ownership.ts`, `rps-ownership.ts`, `property-ownership.ts`) knows nothing of the other's, so
 * without this file the old resources' deletes would remove what the new ones just took.
 *
 * Each process appends what its resources declare and take to its own file, one JSON line per
 * fact, in a directory of the deployment: `<tmp>/pulumi-devplatform-owners-<uid>/deployment-<key>/`,
 * the key hashing the engine's address, the socket listening there (engine-listener.ts: a later
 * engine at the same port is another deployment) and the network namespace (both front-ends are
 * started by the engine with its address as an argument; nothing about process ancestry is
 * assumed, since Pulumi's own launcher runs node under `sh`). Files are named by application (a
 * hash of its clientId, not of the URL's spelling: `applicationKey`) and writer pid: a serial number in one
 * application is not the device of another — but whether the program ran is the deployment's.
 *
 * The record fails closed. A delete reads the other processes' new lines before it decides
 * ({@link catchUpWithOthers}); a record that cannot be created, read or verified (this user's
 * alone: not a link, not writable by others) fails the delete before any request, naming the path,
 * and the `check` that would publish a declaration to it fails too. A process removes its file
 * when it exits (the engine watch makes it exit when the engine is gone) or is ended by SIGTERM,
 * SIGINT or SIGHUP; a directory is removed only when its deployment is proven over (its address
 * refuses connections, or another socket listens there). Where the listening socket cannot be read
 * (no /proc/net), a record that outlives its deployment can only make a later one at the same
 * address skip a delete, never make one.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ResourceOperationError } from "../shared/errors";
import type { SharedFact } from "./shared-facts";
import { DYNAMIC_MARK } from "./dynamic-mark";
import { readNewLines, type Reader } from "./shared-record-lines";
import { listProcesses, startingProviders, type ProcessEntry } from "./starting-providers";
import {
  applicationKey,
  deploymentDirectory,
  deploymentOfThisProcess,
  openDeploymentDirectory,
  sweepGoneDeployments,
  verifyDirectory,
  verifyFile,
  type Deployment,
} from "./shared-record-paths";

export type { SharedFact } from "./shared-facts";
export {
  applicationKey,
  deploymentDirectory,
  deploymentOfThisProcess,
  sharedRoot,
  type Deployment,
} from "./shared-record-paths";

/**
 * The shared record could not be created, read, verified or written: whoever asked must not
 * delete. An expected failure (its message says why and where; no stack).
 */
export class SharedRecordError extends ResourceOperationError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = "SharedRecordError";
  }
}

type FactHandler = (fact: SharedFact, writer: string) => void;

interface State {
  /** Whether the deployment was set or detected (a process detects it once). */
  decided: boolean;
  deployment: Deployment | undefined;
  application: string | undefined;
  file: string | undefined;
  pending: SharedFact[];
  readers: Map<string, Reader>;
  /** Why the record cannot be used (set once; every later use fails with it). */
  failure: SharedRecordError | undefined;
}

const state: State = {
  decided: false,
  deployment: undefined,
  application: undefined,
  file: undefined,
  pending: [],
  readers: new Map(),
  failure: undefined,
};
const handlers: FactHandler[] = [];
let exitHookInstalled = false;

/**
 * Sets the deployment this process serves (the front-ends call it with no argument: detected from
 * the process; tests name one). Undefined leaves the record local to the process.
 */
export function joinDeployment(deployment: Deployment | undefined = deploymentOfThisProcess()): void {
  state.decided = true;
  state.deployment = deployment;
}

function removeOwnFile(): void {
  if (state.file === undefined) return;
  fs.rmSync(state.file, { force: true });
  const directory = path.dirname(state.file);
  try {
    // The last process of the deployment takes the directory with it.
    const left = fs.readdirSync(directory);
    if (left.every((name) => !name.endsWith(".jsonl"))) {
      for (const name of left) fs.rmSync(path.join(directory, name), { force: true });
      fs.rmdirSync(directory);
    }
  } catch {
    // Another process of the deployment joined meanwhile: its directory stays.
  }
}

/**
 * The signals the engine (or a cancelled CI job) ends a provider process with. Node emits no
 * `exit` for them: without a handler, the process's file would outlive its deployment.
 */
const ENDING_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;

/**
 * Removes this process's file, then ends the process as the signal would have, unless another
 * handler of the signal (the host's own) decides what it does.
 */
function leaveOnSignal(signal: (typeof ENDING_SIGNALS)[number]): void {
  try {
    removeOwnFile();
  } finally {
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  }
}

/**
 * Opens this process's file once its application is known (the provider's configuration), and
 * writes the facts recorded before. Without a deployment (a test calling the implementations
 * directly), the record stays local. Never throws: a record that cannot be opened is remembered,
 * and every later publish and read fails with the reason, naming the path.
 */
export function joinApplication(clientId: string): void {
  if (state.application !== undefined || state.failure !== undefined) return;
  if (!state.decided) joinDeployment();
  if (state.deployment === undefined) {
    state.application = applicationKey(clientId);
    return;
  }
  const application = applicationKey(clientId);
  let directory = deploymentDirectory(state.deployment);
  try {
    directory = openDeploymentDirectory(state.deployment);
    const file = path.join(directory, `${application}.${process.pid}.jsonl`);
    fs.writeFileSync(file, "", { flag: "w", mode: 0o600 });
    state.file = file;
  } catch (error) {
    state.failure = new SharedRecordError(
      `the one-owner record this deployment's provider processes share cannot be opened at ${directory} ` +
        `(${(error as Error).message}); nothing will be deleted by this process, since what the ` +
        "others manage could not be known",
      { cause: error },
    );
    return;
  }
  state.application = application;
  void sweepGoneDeployments(directory);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", removeOwnFile);
    for (const signal of ENDING_SIGNALS) process.once(signal, () => leaveOnSignal(signal));
  }
  const pending = state.pending;
  state.pending = [];
  if (pending.length > 0) append(pending);
}

function append(facts: readonly SharedFact[]): void {
  // One append of whole lines by the only writer of this file: a reader sees whole lines, or a
  // last line still without its newline, which it leaves for its next read.
  fs.appendFileSync(state.file as string, facts.map((fact) => `${JSON.stringify(fact)}\n`).join(""));
}

/**
 * Publishes a fact to the deployment's other processes. Throws when the file cannot be written:
 * a declaration others cannot see could let them delete what this process's resources manage, so
 * the caller's check fails instead (claims, made after a write to the platform, catch it).
 */
export function publish(fact: SharedFact): void {
  if (!state.decided) joinDeployment();
  if (state.failure !== undefined) throw state.failure;
  if (state.deployment === undefined) return;
  if (state.file === undefined) {
    state.pending.push(fact);
    return;
  }
  append([fact]);
}

/** Registers what to do with each fact another process published (the ownership modules). */
export function onOthersFact(handler: FactHandler): void {
  handlers.push(handler);
}

/**
 * Facts of the deployment, not of one application: every process reads them from every other,
 * whatever application each serves. Whether the program runs is one: with one explicit provider
 * per application, the process whose fleet the program dropped checks nothing, while another
 * application's process checks what the program still declares. The removal budget is one too
 * (removal-budget.ts): "at most N devices removed by this `up`" counts every application's.
 */
const DEPLOYMENT_FACTS: ReadonlySet<SharedFact["t"]> = new Set(["program-ran", "removals"]);

/** The other writers' files: this application's, then the others' (read for deployment facts). */
function othersFiles(directory: string): { name: string; sameApplication: boolean }[] {
  const own = path.basename(state.file ?? "");
  return fs
    .readdirSync(directory)
    .filter((name) => name.endsWith(".jsonl") && name !== own)
    .sort()
    .map((name) => ({ name, sameApplication: name.startsWith(`${state.application}.`) }));
}

/**
 * The facts' schema, loaded when another process's record is first read: it is zod's (about 90
 * modules, ~0.1 s of CPU to load), and a process that reads none — the one provider host of a
 * no-change preview — should not pay for it.
 */
let factSchemaLoad: Promise<FactSchema> | undefined;
type FactSchema = typeof import("./shared-facts").sharedFact;

function factSchema(): Promise<FactSchema> {
  factSchemaLoad ??= import("./shared-facts.js").then((facts) => facts.sharedFact);
  return factSchemaLoad;
}

function parseLine(schema: FactSchema, file: string, line: string): SharedFact {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    parsed = undefined;
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    throw new SharedRecordError(
      `the one-owner record another provider process of this deployment wrote (${file}) has a line that is ` +
        `not a record (${line.slice(0, 80)}); nothing was deleted, since what that process manages is unknown`,
    );
  }
  return result.data;
}

/**
 * Applies what the deployment's other processes of this application published since the last
 * call, and the deployment's facts ({@link DEPLOYMENT_FACTS}) whichever application published them. Throws {@link SharedRecordError} when a file cannot be read: the delete that asked must fail.
 */
export async function catchUpWithOthers(): Promise<void> {
  if (!state.decided) joinDeployment();
  if (state.failure !== undefined) throw state.failure;
  if (state.deployment === undefined) return;
  if (state.application === undefined) {
    // A caller that has not resolved the provider's configuration cannot know which record to read.
    throw new SharedRecordError(
      "the provider's configuration (clientId) is not known yet, so the one-owner record this " +
        "deployment's provider processes share cannot be read; nothing was deleted",
    );
  }
  const directory = deploymentDirectory(state.deployment);
  // Loaded before the reading starts, so that what follows runs without a pause another call could enter.
  const schema = await factSchema();
  try {
    verifyDirectory(directory);
    // This process's own file stands for the directory being the deployment's still (a sweep
    // that took it for a gone engine's moves it away): without it, nothing read here is whole.
    verifyFile(state.file as string, fs.lstatSync(state.file as string));
    for (const { name, sameApplication } of othersFiles(directory)) {
      const file = path.join(directory, name);
      const reader = state.readers.get(file) ?? { offset: 0 };
      state.readers.set(file, reader);
      const writer = name.slice(0, -".jsonl".length);
      const { lines, next } = readNewLines(file, reader);
      // Every line parses before any is applied or passed: an unreadable line fails every later read too.
      const facts = lines
        .map((line) => parseLine(schema, file, line))
        .filter((fact) => sameApplication || DEPLOYMENT_FACTS.has(fact.t));
      for (const fact of facts) for (const handler of handlers) handler(fact, writer);
      reader.offset = next;
    }
  } catch (error) {
    if (error instanceof SharedRecordError) throw error;
    throw new SharedRecordError(
      `the one-owner record of this deployment's other provider processes (${directory}) cannot be read ` +
        `(${(error as Error).message}); nothing was deleted, since what they manage is unknown`,
      { cause: error },
    );
  }
}

/**
 * Whether a provider process of this package the engine started for this deployment has not joined
 * its record yet (see starting-providers.ts): what its resources declare cannot be known until it
 * has. False without a deployment; undefined where processes cannot be listed (Windows, a Linux
 * without /proc or `ps`): then nobody can tell, and the caller waits as for one starting.
 */
export function providersStarting(
  processes: () => ProcessEntry[] | undefined = listProcesses,
): boolean | undefined {
  if (!state.decided) joinDeployment();
  if (state.deployment === undefined) return false;
  const listed = processes();
  if (listed === undefined) return undefined;
  let names: string[];
  try {
    names = fs.readdirSync(deploymentDirectory(state.deployment));
  } catch {
    names = [];
  }
  // Any application's writer has joined: files are `<application>.<pid>.jsonl`.
  const joined = new Set(names.map((name) => Number(/\.(\d+)\.jsonl$/.exec(name)?.[1])).filter(Boolean));
  const dynamicMarked = names.includes(DYNAMIC_MARK);
  return startingProviders(listed, state.deployment.engineAddress, joined, dynamicMarked).length > 0;
}

/** Forgets the deployment and everything read (tests); removes this process's file. */
export function resetSharedRecord(): void {
  removeOwnFile();
  state.decided = false;
  state.deployment = undefined;
  state.application = undefined;
  state.file = undefined;
  state.pending = [];
  state.readers.clear();
  state.failure = undefined;
}
