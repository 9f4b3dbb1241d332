/**
 * One device, one owner: what this deployment's resources declared and took, so that a delete
 * never removes a device another resource now manages.
 *
 * The dynamic provider host runs one process per deployment, so a module-level record is the
 * deployment's record. Two kinds of facts are kept:
 *
 * - declarations, from `check`: which resource declares which serial number (and in which project,
 *   which does not matter to ownership: a project is a tag, changed in place).
 *   The engine checks every registered resource while it generates steps, before most steps run.
 * - claims, from create/update: which device (by deviceId) a resource added or adopted.
 *
 * A rename is the case that matters most: the engine creates the new resource (which adopts the
 * device by serial number) and deletes the old one at the end of the deployment. Without this
 * record the old resource's delete would remove the device the new one just took.
 *
 * The deployment's other provider processes (the plugin beside the dynamic provider host, during a
 * move from one to the other) publish theirs through `shared-record.ts`: their owners are always
 * another resource's, and a delete reads them in {@link declarationsSettled} before it decides.
 */
import { machineMs } from "../deployment/machine-clock";
import {
  catchUpWithOthers,
  onOthersFact,
  providersStarting,
  publish,
  type SharedFact,
} from "../deployment/shared-record";

/** Who declares or holds a device: a Device resource, or a DeviceFleet, by URN where known. */
export interface Owner {
  readonly kind: "Device" | "DeviceFleet";
  /** The fleet's name for a DeviceFleet (for messages; identity is the URN). */
  readonly fleet?: string;
  /** The resource's full URN (type and parents), from the current call (`request-urn.ts`). */
  readonly urn?: string;
  /** Set on a fleet whose whole delete asks: it is nobody else (see {@link sameOwner}). */
  readonly leaving?: true;
  /** Set on owners another provider process of this deployment published. */
  readonly elsewhere?: true;
  /**
   * A Device's checked inputs, as text, where its check declared it: two Devices of one process
   * of which one's check carried no URN are two when these differ (duplicate-serials.ts).
   */
  readonly inputs?: string;
}

interface Declaration extends Owner {
  /** The declared project, normalised ("" for none). */
  readonly project: string;
}

interface Claim extends Owner {
  readonly sn: string;
}

const declarations = new Map<string, Declaration[]>();
let programChecked = false;
const claims = new Map<string, Claim>();
let lastDeclarationAt = 0;

/** What the deployment's other processes declare, by writer and owner; their claims, by deviceId. */
const remoteDeclarations = new Map<string, { owner: Owner; serials: Set<string> }>();
const remoteClaims = new Map<string, Owner>();
/** When this process's first delete asked whether the declarations settled (machine clock). */
let firstSettleAt: number | undefined;
let remoteLastDeclarationAt = 0;
let remoteProgramRan = false;

function applyOthersFact(fact: SharedFact, writer: string): void {
  if (fact.t === "device-declare") {
    const owner: Owner = { ...fact.owner, elsewhere: true };
    const key = `${writer}\u0000${owner.kind}\u0000${owner.urn ?? owner.fleet ?? ""}`;
    const entry = remoteDeclarations.get(key) ?? { owner, serials: new Set<string>() };
    // A fleet's declaration replaces its previous one, as it does locally.
    if (owner.kind === "DeviceFleet") entry.serials.clear();
    for (const { sn } of fact.serials) entry.serials.add(serialKey(sn));
    remoteDeclarations.set(key, entry);
    remoteLastDeclarationAt = Math.max(remoteLastDeclarationAt, fact.at);
  } else if (fact.t === "device-claim") {
    remoteClaims.set(fact.deviceId, { ...fact.owner, elsewhere: true });
  } else if (fact.t === "device-release") {
    remoteClaims.delete(fact.deviceId);
  } else if (fact.t === "program-ran") {
    remoteProgramRan = true;
  } else if (fact.t === "rps-declare" || fact.t === "rps-batch-declare" || fact.t === "property-declare") {
    remoteLastDeclarationAt = Math.max(remoteLastDeclarationAt, fact.at);
  }
}
onOthersFact(applyOthersFact);

/** The owner part of a published fact (never the `elsewhere` mark). */
function published(owner: Owner): { kind: Owner["kind"]; fleet?: string; urn?: string } {
  return {
    kind: owner.kind,
    ...(owner.fleet === undefined ? {} : { fleet: owner.fleet }),
    ...(owner.urn === undefined ? {} : { urn: owner.urn }),
  };
}

/**
 * Publishes a claim, made after a write to the platform: its failure must not lose that write, and
 * the claimant's declaration (from `check`, published or failed there) already stands for it.
 */
function publishClaim(fact: SharedFact): void {
  try {
    publish(fact);
  } catch (error) {
    process.stderr.write(
      `devplatform: could not publish to the deployment's one-owner record: ${String(error)}\n`,
    );
  }
}

/** Serial numbers compare without regard to case, as the platform compares them. */
export function serialKey(sn: string): string {
  return sn.toUpperCase();
}

/**
 * Whether two owners are the same resource.
 *
 * Fleets are told apart by full URN, so that two fleets of one name under different parents are
 * two owners. Where only one of the two carries a URN, they are not proven the same, and are taken
 * as two: the dynamic provider host calls its first `check` before it loads this package, so the
 * first fleet checked in a deployment declares without its URN, and taking it by name for a
 * same-named fleet that deletes would delete what it declares. Where neither carries a URN (tests
 * calling the implementations directly), fleets fall back to their names. A fleet that is `leaving`
 * (its whole delete) is nobody else: a resource of its URN that declared or took a device in this
 * deployment is its replacement, another resource.
 *
 * Devices are never the same, by design: a Device that deletes its device in a deployment neither
 * creates it nor declares its serial number in that deployment — it is gone from the program, or
 * replaced (only `sn` replaces a Device, and deletes before it creates; a replacement that creates
 * first carries the same URN, so the URN cannot tell the two apart) — so a claim or declaration seen
 * by a deleting Device is always another resource's.
 */
function sameOwner(a: Owner, b: Owner): boolean {
  if (a.kind !== "DeviceFleet" || b.kind !== "DeviceFleet" || a.leaving || b.leaving) return false;
  if (a.urn !== undefined && b.urn !== undefined) return a.urn === b.urn;
  if (a.urn !== undefined || b.urn !== undefined) return false;
  return a.fleet === b.fleet;
}

/**
 * Records that `owner` declares `sn` in this deployment (called from `check`). A DeviceFleet
 * replaces its previous declarations first, so a serial number it no longer lists is not its own.
 */
export function declareSerials(owner: Owner, serials: readonly { sn: string; project?: string }[]): void {
  lastDeclarationAt = machineMs();
  publish({
    t: "device-declare",
    owner: published(owner),
    serials: serials.map(({ sn, project }) => ({ sn, project: project ?? "" })),
    at: lastDeclarationAt,
  });
  if (owner.kind === "DeviceFleet") {
    for (const [key, list] of declarations) {
      const kept = list.filter((d) => !sameOwner(d, owner));
      if (kept.length === list.length) continue;
      if (kept.length > 0) declarations.set(key, kept);
      else declarations.delete(key);
    }
  }
  for (const { sn, project } of serials) {
    const key = serialKey(sn);
    const list = declarations.get(key) ?? [];
    const declaration = { ...owner, project: project ?? "" };
    const known = list.some(
      (d) =>
        d.kind === owner.kind &&
        d.fleet === owner.fleet &&
        d.urn === owner.urn &&
        d.inputs === owner.inputs &&
        d.project === declaration.project,
    );
    if (!known) list.push(declaration);
    declarations.set(key, list);
  }
}

/**
 * Every resource that declares `sn` in this deployment, as far as known: this process's, and the
 * other processes' as last read (`catchUpWithOthers`). See duplicate-serials.ts.
 */
export function declarersOf(sn: string): Owner[] {
  const key = serialKey(sn);
  // Walked, not copied: an RPS batch's check asks this for each of its records.
  const owners: Owner[] = [...(declarations.get(key) ?? [])];
  for (const { serials, owner } of remoteDeclarations.values()) if (serials.has(key)) owners.push(owner);
  return owners;
}

/** Records that `owner` added or adopted the device `deviceId` (serial number `sn`) in this deployment. */
export function claimDevice(deviceId: string, sn: string, owner: Owner): void {
  claims.set(deviceId, { ...owner, sn });
  publishClaim({ t: "device-claim", deviceId, sn, owner: published(owner) });
}

/** Forgets the claim on a device, after its owner deleted it. */
export function releaseClaim(deviceId: string): void {
  claims.delete(deviceId);
  publishClaim({ t: "device-release", deviceId });
}

/** Describes an owner for messages: `a Device resource` or `DeviceFleet site-a`. */
export function describeOwner(owner: Owner): string {
  const name = owner.kind === "Device" ? "a Device resource" : `DeviceFleet ${owner.fleet ?? ""}`.trim();
  return owner.elsewhere ? `${name} (served by another provider process of this deployment)` : name;
}

/**
 * Whom, other than `deleter`, the device belongs to in this deployment: a resource that claimed
 * it, or one that declares its serial number (and so will adopt it) — in any project: a project is
 * a tag, so that resource adopts the device and retags it in place.
 */
export function otherOwner(device: { deviceId: string; sn: string }, deleter: Owner): Owner | undefined {
  const claim = claims.get(device.deviceId);
  if (claim && !sameOwner(claim, deleter)) return claim;
  const key = serialKey(device.sn);
  const declared = declarations.get(key)?.find((d) => !sameOwner(d, deleter));
  if (declared) return declared;
  // Another process's resources are never the deleter (a resource is served by one process).
  const remoteClaim = remoteClaims.get(device.deviceId);
  if (remoteClaim) return remoteClaim;
  for (const { owner, serials } of remoteDeclarations.values()) if (serials.has(key)) return owner;
  return undefined;
}

/** Time with no new declaration after which the engine has most likely checked every resource. */
const QUIET_MS = 300;
/** A delete never waits longer than this for declarations to settle. */
const MAX_WAIT_MS = 5_000;
/** How long a delete waits for the deployment's starting provider processes to join the record. */
const STARTING_WAIT_MS = 15_000;
/**
 * The quiet time after a starting process joined: the engine sends it the checks it held for it
 * (the resources registered meanwhile) only once it is configured.
 */
const JOINED_QUIET_MS = 1_000;

/**
 * Waits until no resource has been checked for a short while, so that a delete that runs while the
 * engine is still registering resources sees the declarations of those registered after it (a
 * serial number moving from a fleet to a Device in one `up`, for example). Returns at once when
 * the registrations are long over, as they are for the deletes the engine runs at the end.
 * First waits (at most `startingWaitMs`) while a provider process the engine started for this
 * deployment has not joined the record, then for a longer quiet time: a Device of the plugin,
 * whose process is still starting, cannot have declared yet what a dynamic fleet's removal is
 * about to delete. Reads the deployment's other processes' record first, and counts their
 * declarations too; throws (`SharedRecordError`) when that record cannot be read, so that the
 * delete fails instead.
 */
export async function declarationsSettled(
  quietMs = QUIET_MS,
  maxWaitMs = MAX_WAIT_MS,
  now: () => number = machineMs,
  starting: () => boolean | undefined = providersStarting,
  startingWaitMs = STARTING_WAIT_MS,
): Promise<void> {
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(1, ms)));
  await catchUpWithOthers();
  firstSettleAt ??= now();
  const startingDeadline = now() + startingWaitMs;
  // Where processes cannot be listed, one may be starting unseen: the wait runs as for a process
  // seen starting, until the bound counted from this process's first delete (later ones go at once).
  const unseenDeadline = firstSettleAt + startingWaitMs;
  const mayBeStarting = () => {
    const answer = starting();
    return answer === undefined ? now() < unseenDeadline : answer;
  };
  let joinedAt = 0;
  while (mayBeStarting() && now() < startingDeadline) {
    await pause(100);
    await catchUpWithOthers();
    joinedAt = now();
  }
  const quiet = joinedAt > 0 ? Math.max(quietMs, JOINED_QUIET_MS) : quietMs;
  const deadline = now() + maxWaitMs;
  const last = () => Math.max(lastDeclarationAt, remoteLastDeclarationAt, joinedAt);
  while (last() > 0 && now() - last() < quiet && now() < deadline) {
    await pause(Math.min(quiet - (now() - last()), deadline - now()));
    await catchUpWithOthers();
  }
}

/**
 * Another kind's declaration (an RPS record, `rps-ownership.ts`; a managed property,
 * `property-ownership.ts`) counts for {@link declarationsSettled} too.
 */
export function noteDeclaration(): void {
  lastDeclarationAt = machineMs();
}

/** A resource was checked: the engine is running the program (an `up` or a `preview`). */
export function noteProgramRan(): void {
  if (!programChecked) publish({ t: "program-ran" });
  programChecked = true;
}

/**
 * Whether this deployment ran the program. In `pulumi destroy` the engine checks no resource, so a
 * delete then is the user's explicit wish; in an `up`, a resource is deleted because the program no
 * longer declares it — which a truncated inventory can cause, and what `maxRemovals` guards. Another
 * process of the deployment checking resources counts (its facts are read by `declarationsSettled`).
 */
export function programRan(): boolean {
  return programChecked || remoteProgramRan;
}

/** Forgets every declaration and claim (tests). */
export function resetOwnership(): void {
  declarations.clear();
  claims.clear();
  lastDeclarationAt = 0;
  programChecked = false;
  remoteDeclarations.clear();
  remoteClaims.clear();
  remoteLastDeclarationAt = 0;
  remoteProgramRan = false;
  firstSettleAt = undefined;
}
