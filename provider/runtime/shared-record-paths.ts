/**
 * Where the one-owner record of a deployment lives (see shared-record.ts): which engine a provider
 * process serves, the deployment's directory (keyed by the engine's address, pid and start time,
 * so that a later deployment never reads an earlier one's files), the application's namespace, and
 * the sweep of directories whose engine is gone.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** Which deployment a process serves: the engine that started it. */
export interface Deployment {
  readonly engineAddress: string;
  readonly enginePid: number;
}

/** Where the deployments' directories live (overridable for tests). */
export function sharedRoot(): string {
  // One root per user: another user's directory of the same name must not stop (or feed) this one.
  const user = process.getuid?.() ?? os.userInfo().username;
  return process.env.DEVPLATFORM_OWNERSHIP_DIR ?? path.join(os.tmpdir(), `pulumi-devplatform-owners-${user}`);
}

/** The engine that started this process, from its arguments (`… <host:port>`) and its parent. */
export function deploymentOfThisProcess(
  argv: readonly string[] = process.argv.slice(2),
  parentPid: number = process.ppid,
): Deployment | undefined {
  const engineAddress = argv.find((arg) => /^[\w.-]+:\d+$/.test(arg) || /^\[[\da-f:]+\]:\d+$/i.test(arg));
  return engineAddress === undefined ? undefined : { engineAddress, enginePid: parentPid };
}

/** The start time of a process, so that a reused pid never names an older deployment ("" off Linux). */
function startTimeOf(pid: number): string {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "";
  } catch {
    return "";
  }
}

function hash(text: string): string {
  return crypto.createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** The directory of a deployment. */
export function deploymentDirectory(deployment: Deployment): string {
  const key = hash(
    `${deployment.engineAddress}\n${deployment.enginePid}\n${startTimeOf(deployment.enginePid)}`,
  );
  return path.join(sharedRoot(), `${deployment.enginePid}-${key}`);
}

/** The namespace of an application: two applications never share owners. */
export function applicationKey(baseUrl: string, clientId: string): string {
  return hash(`${baseUrl.replace(/\/+$/, "")}\n${clientId}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the directories of deployments whose engine is gone (left by a killed process). */
export function sweepGoneDeployments(): void {
  let entries: string[];
  try {
    entries = fs.readdirSync(sharedRoot());
  } catch {
    return;
  }
  for (const entry of entries) {
    const pid = Number(entry.split("-")[0]);
    if (Number.isInteger(pid) && pid > 0 && !alive(pid)) {
      fs.rmSync(path.join(sharedRoot(), entry), { recursive: true, force: true });
    }
  }
}
