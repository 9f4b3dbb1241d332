/**
 * Where the one-owner record of a deployment lives (see shared-record.ts), and what makes it
 * trusted: which engine a provider process serves, the deployment's directory (keyed by the
 * engine's address, the socket listening there — engine-listener.ts — and the network namespace
 * that address is reachable in), the application's namespace, the checks that the record is this
 * user's alone, and the sweep of directories whose engine is proven gone.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { engineAddressIn, engineIsGone } from "./engine-address";
import { listenerAt, type ProcNetReader } from "./engine-listener";

/** Which deployment a process serves: the engine that started it, by the address it handed over. */
export interface Deployment {
  readonly engineAddress: string;
  /**
   * The socket listening at that address (its inodes), where /proc/net tells: another engine given
   * the same port later is another deployment. {@link NO_LISTENER} when nothing listens there.
   */
  readonly listener?: string;
}

/** The listener of a deployment whose address nothing listens at: its engine is gone. */
export const NO_LISTENER = "none";

/** The deployment an engine's address names now. */
export function deploymentAt(engineAddress: string, read?: ProcNetReader): Deployment {
  const listener = listenerAt(engineAddress, read);
  if (listener.kind === "unknown") return { engineAddress };
  return { engineAddress, listener: listener.kind === "found" ? listener.identity : NO_LISTENER };
}

/** The record is not this user's alone, or not where it should be: nothing may rely on it. */
export class UntrustedRecordError extends Error {
  override readonly name = "UntrustedRecordError";
}

/** Where the deployments' directories live (overridable for tests). */
export function sharedRoot(): string {
  // One root per user: another user's directory of the same name must not stop (or feed) this one.
  const user = process.getuid?.() ?? os.userInfo().username;
  return process.env.DEVPLATFORM_OWNERSHIP_DIR ?? path.join(os.tmpdir(), `pulumi-devplatform-owners-${user}`);
}

/** The engine that started this process, from its arguments (`… <host:port>`). */
export function deploymentOfThisProcess(
  argv: readonly string[] = process.argv.slice(2),
): Deployment | undefined {
  const engineAddress = engineAddressIn(argv);
  return engineAddress === undefined ? undefined : deploymentAt(engineAddress);
}

/**
 * The network namespace of this process ("" off Linux). A loopback address names one engine only
 * within one namespace: a container sharing /tmp may run another engine at the same address.
 */
function networkNamespace(): string {
  try {
    return fs.readlinkSync("/proc/self/ns/net");
  } catch {
    return "";
  }
}

function hash(text: string): string {
  return crypto.createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** The directory of a deployment. */
export function deploymentDirectory(deployment: Deployment): string {
  const listener = deployment.listener === undefined ? "" : `\n${deployment.listener}`;
  return path.join(
    sharedRoot(),
    `deployment-${hash(`${networkNamespace()}\n${deployment.engineAddress}${listener}`)}`,
  );
}

/**
 * The namespace of an application: two applications never share owners.
 *
 * An application is the platform's, not a spelling of its URL: `http://127.0.0.1:PORT` and
 * `http://localhost:PORT` (or a host's two names, or its address) reach one application, whose
 * devices, owners and rate are one. So the key is the application's OAuth client id, which the
 * platform issues to one application and whose tokens act on that application only, whatever URL
 * they are sent to. The platform's own `applicationId` (in every device answer, not in the token
 * answer) is no key: two platforms number their applications independently (every emulator
 * reports `1650000000000000017`), and an application without devices names it nowhere, so it
 * would cost a request in every provider process's first check and still be unknown there.
 * Two platforms that issued one client id are taken for one application: the record then refuses
 * one serial number declared on both and keeps a delete from removing what either declares — it
 * fails closed, never open.
 */
export function applicationKey(clientId: string): string {
  return hash(`client\n${clientId.trim()}`);
}

function myUid(): number | undefined {
  return process.getuid?.();
}

/**
 * What tells who may write a file: the platform and this user's profile directory. Tests give
 * another platform; everywhere else it is this process's.
 */
export interface FileTrust {
  readonly platform: NodeJS.Platform;
  /** This user's home (profile) directory. */
  readonly profile: string;
}

function thisMachine(): FileTrust {
  return { platform: process.platform, profile: os.homedir() };
}

/**
 * Throws {@link UntrustedRecordError} unless `target` is a real directory (no link), this user's,
 * and writable by nobody else: what another local user could write there, they could use to make
 * deletes skip (planted claims) or fail (a malformed line).
 */
export function verifyDirectory(target: string, trust: FileTrust = thisMachine()): void {
  const stat = fs.lstatSync(target);
  if (stat.isSymbolicLink()) throw new UntrustedRecordError(`${target} is a symbolic link`);
  if (!stat.isDirectory()) throw new UntrustedRecordError(`${target} is not a directory`);
  verifyWriters(target, stat, trust);
}

/**
 * Throws unless only this user may write `target`. Where owners and mode bits say so (every
 * platform but Windows): this user's, and not writable by group or others. On Windows Node reports
 * mode 0o666 (0o777 for a directory) for everything writable and no owner, so the bits say nothing:
 * who may write is the ACL's, which Node cannot read. A directory inside this user's profile is
 * this user's alone by the profile's default ACL (the user, SYSTEM and Administrators), and the
 * default root is there (`%LOCALAPPDATA%\Temp`); anywhere else cannot be verified, and fails
 * closed, as a directory writable by others does.
 */
function verifyWriters(target: string, stat: fs.Stats, trust: FileTrust): void {
  if (trust.platform === "win32") {
    if (!insideProfile(target, trust.profile))
      throw new UntrustedRecordError(
        `${target} is outside this user's profile (${trust.profile}): on Windows only a directory ` +
          "there is known to be writable by this user alone",
      );
    return;
  }
  const uid = myUid();
  if (uid !== undefined && stat.uid !== uid)
    throw new UntrustedRecordError(`${target} belongs to user ${stat.uid}, not to this user (${uid})`);
  if ((stat.mode & 0o022) !== 0)
    throw new UntrustedRecordError(
      `${target} is writable by others (mode ${(stat.mode & 0o777).toString(8)})`,
    );
}

/** Whether `target` is inside `profile`, as Windows compares paths (without regard to case). */
function insideProfile(target: string, profile: string): boolean {
  const relative = path.win32.relative(profile.toLowerCase(), target.toLowerCase());
  return relative !== "" && !relative.startsWith("..") && !path.win32.isAbsolute(relative);
}

/**
 * The text of `file` when it is this user's alone (see {@link verifyFile}); undefined when there is
 * no such file. Throws when it is not to be trusted.
 */
export function readOwnFile(file: string): string | undefined {
  try {
    verifyFile(file, fs.lstatSync(file));
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Like {@link verifyDirectory}, for a record file another process of the deployment wrote. */
export function verifyFile(target: string, stat: fs.Stats, trust: FileTrust = thisMachine()): void {
  if (stat.isSymbolicLink()) throw new UntrustedRecordError(`${target} is a symbolic link`);
  if (!stat.isFile()) throw new UntrustedRecordError(`${target} is not a regular file`);
  verifyWriters(target, stat, trust);
}

/** Creates `target` (mode 0700) unless it exists, then verifies it either way. */
export function ensureDirectory(target: string): void {
  try {
    fs.mkdirSync(target, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  verifyDirectory(target);
}

/** What a deployment's directory says of itself, for the sweep. */
export const DESCRIPTION = "deployment.json";

/**
 * Creates (or finds) the deployment's directory under a verified root and returns it verified.
 * Throws when either cannot be created or is not this user's alone.
 */
export function openDeploymentDirectory(deployment: Deployment): string {
  if (deployment.listener === NO_LISTENER)
    throw new Error(
      `nothing listens at the engine's address ${deployment.engineAddress}: its deployment is over`,
    );
  const root = sharedRoot();
  fs.mkdirSync(path.dirname(root), { recursive: true });
  ensureDirectory(root);
  const directory = deploymentDirectory(deployment);
  ensureDirectory(directory);
  const description = JSON.stringify({
    engineAddress: deployment.engineAddress,
    netns: networkNamespace(),
    ...(deployment.listener === undefined ? {} : { listener: deployment.listener }),
  });
  try {
    fs.writeFileSync(path.join(directory, DESCRIPTION), description, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return directory;
}

interface DescribedEngine {
  engineAddress: string;
  netns: string;
  listener?: string;
}

function describedEngine(directory: string): DescribedEngine | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(path.join(directory, DESCRIPTION), "utf8")) as unknown;
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { engineAddress, netns, listener } = parsed as Record<string, unknown>;
    if (typeof engineAddress !== "string" || typeof netns !== "string") return undefined;
    return typeof listener === "string" ? { engineAddress, netns, listener } : { engineAddress, netns };
  } catch {
    return undefined;
  }
}

/**
 * Whether a described deployment is proven over: another socket (or none) listens at its address
 * now, or its address refuses connections.
 */
async function deploymentIsOver(engine: DescribedEngine): Promise<boolean> {
  if (engine.listener !== undefined) {
    const now = listenerAt(engine.engineAddress);
    if (now.kind === "none" || (now.kind === "found" && now.identity !== engine.listener)) return true;
  }
  return engineIsGone(engine.engineAddress);
}

/**
 * Removes the directories of deployments proven over: in this network namespace, another socket
 * (or none) listens at their engine's address, or it refuses connections. A directory this process
 * cannot prove over (another namespace, no description, an engine that answers or does not answer)
 * stays. Cleanup only: never throws.
 */
export async function sweepGoneDeployments(own: string | undefined): Promise<void> {
  const root = sharedRoot();
  let entries: string[];
  try {
    verifyDirectory(root);
    entries = fs.readdirSync(root).filter((name) => name.startsWith("deployment-"));
  } catch {
    return;
  }
  const netns = networkNamespace();
  for (const name of entries) {
    const directory = path.join(root, name);
    if (directory === own) continue;
    const engine = describedEngine(directory);
    if (engine === undefined || engine.netns !== netns) continue;
    if (!(await deploymentIsOver(engine))) continue;
    // Moved aside first: a process of a new engine at the same address that joined in between
    // finds its own file gone and fails closed, instead of writing into a directory being removed.
    const aside = path.join(root, `.gone-${name}-${process.pid}-${Date.now()}`);
    try {
      fs.renameSync(directory, aside);
      fs.rmSync(aside, { recursive: true, force: true });
    } catch {
      // Another process swept it first.
    }
  }
}
