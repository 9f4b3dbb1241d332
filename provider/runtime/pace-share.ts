/**
 * One pace for the provider processes of a deployment. Each process (the dynamic provider host, each
 * plugin instance) has its own platform client and its own pacer (the SDK's pacer.ts); this share,
 * the SDK's `paceShare`, makes a `rate_limited` refusal one process met slow the others as if it
 * were theirs: the lower rate, and the hold of every start for a `Retry-After` longer than a second.
 *
 * Each process writes its latest decrease to a file of its own in the deployment's directory (the
 * one the one-owner record lives in: shared-record-paths.ts), `pace.<application>.<pid>.json`,
 * replaced whole by a rename; the others read the directory at most every
 * {@link PACE_READ_INTERVAL_MS}. The pace is advice, not a guard: a file that cannot be written or
 * read (or is not this user's alone) is ignored, and each process then finds the limit from its own
 * refusals, as separate deployments do.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { PaceShare, PaceSignal } from "../../sdk";
import {
  applicationKey,
  deploymentOfThisProcess,
  openDeploymentDirectory,
  verifyFile,
  type Deployment,
} from "./shared-record-paths";

/** How long a process goes on its view of the others' refusals before it reads them again. */
export const PACE_READ_INTERVAL_MS = 250;

const PREFIX = "pace.";

/** The shared pace of one application, as one process of a deployment sees it. */
export class DeploymentPaceShare implements PaceShare {
  private directory: string | undefined;
  private readonly ownFile: string;
  private readonly seen = new Map<string, number>();
  private lastReadAt = Number.NEGATIVE_INFINITY;

  /**
   * @param deployment the deployment whose processes share the pace
   * @param baseUrl the application's base URL
   * @param clientId the application's client id
   * @param now the clock (tests move it)
   * @param pid the writer's process id, in its file's name (tests play several processes)
   */
  constructor(
    private readonly deployment: Deployment,
    baseUrl: string,
    clientId: string,
    private readonly now: () => number = Date.now,
    pid: number = process.pid,
  ) {
    this.ownFile = `${PREFIX}${applicationKey(baseUrl, clientId)}.${pid}.json`;
    ownFiles.add(this);
  }

  /** Publishes this process's decrease (never throws: the others then meet the limit themselves). */
  refused(signal: PaceSignal): void {
    try {
      const directory = this.open();
      const target = path.join(directory, this.ownFile);
      const temporary = `${target}.tmp`;
      fs.writeFileSync(temporary, JSON.stringify(signal), { mode: 0o600 });
      fs.renameSync(temporary, target);
    } catch {
      // Advice only; see the file's comment.
    }
  }

  /** The decreases the others published since the last read, reading when due. */
  async othersRefusals(): Promise<readonly PaceSignal[]> {
    const at = this.now();
    if (at - this.lastReadAt < PACE_READ_INTERVAL_MS) return [];
    this.lastReadAt = at;
    try {
      return this.readOthers();
    } catch {
      return [];
    }
  }

  /** Removes this process's file (at exit). */
  remove(): void {
    if (this.directory !== undefined) fs.rmSync(path.join(this.directory, this.ownFile), { force: true });
  }

  private open(): string {
    this.directory ??= openDeploymentDirectory(this.deployment);
    return this.directory;
  }

  private readOthers(): PaceSignal[] {
    const directory = this.open();
    const application = this.ownFile.slice(0, this.ownFile.indexOf(".", PREFIX.length) + 1);
    const signals: PaceSignal[] = [];
    for (const name of fs.readdirSync(directory)) {
      if (!name.startsWith(application) || !name.endsWith(".json") || name === this.ownFile) continue;
      const signal = readSignal(path.join(directory, name));
      if (signal === undefined || signal.at <= (this.seen.get(name) ?? Number.NEGATIVE_INFINITY)) continue;
      this.seen.set(name, signal.at);
      signals.push(signal);
    }
    return signals;
  }
}

/** A signal file another process wrote, when it is this user's alone and reads as one. */
function readSignal(file: string): PaceSignal | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    verifyFile(file, fs.fstatSync(fd));
    const parsed = JSON.parse(fs.readFileSync(fd, "utf8")) as Partial<Record<keyof PaceSignal, unknown>>;
    const { at, pausedUntil, rate } = parsed;
    if (typeof at !== "number" || typeof pausedUntil !== "number" || typeof rate !== "number")
      return undefined;
    if (!(rate > 0)) return undefined;
    return { at, pausedUntil, rate };
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

const ownFiles = new Set<DeploymentPaceShare>();
// Registered when this module loads, before the one-owner record's own exit hook (registered when
// the application is known), so that the deployment's directory is empty of pace files when that
// hook looks whether it is the last process's to remove.
process.on("exit", () => {
  for (const share of ownFiles) {
    try {
      share.remove();
    } catch {
      // Cleanup only.
    }
  }
});

/** The pace share of this process for an application, or undefined outside a deployment. */
export function deploymentPaceShare(baseUrl: string, clientId: string): DeploymentPaceShare | undefined {
  const deployment = deploymentOfThisProcess();
  return deployment === undefined ? undefined : new DeploymentPaceShare(deployment, baseUrl, clientId);
}
