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
 */

/** Who declares or holds a device: a Device resource, or a DeviceFleet by its name. */
export interface Owner {
  readonly kind: "Device" | "DeviceFleet";
  /** The fleet's name for a DeviceFleet; undefined for a Device (dynamic providers see no URN). */
  readonly fleet?: string;
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

/** Serial numbers compare without regard to case, as the platform compares them. */
export function serialKey(sn: string): string {
  return sn.toUpperCase();
}

/**
 * Whether two owners are the same resource. Fleets are told apart by name. Device resources cannot
 * be (a dynamic provider is not told the resource's name), and need not be: a Device that deletes
 * its device in a deployment neither creates it nor declares its serial number in that deployment
 * — it is gone from the program, or replaced because its serial number changed (only `sn` replaces
 * a Device; its replacement declares the new serial number, and deletes before it creates) — so a
 * claim or declaration seen by a deleting Device is always another resource's.
 */
function sameOwner(a: Owner, b: Owner): boolean {
  return a.kind === "DeviceFleet" && b.kind === "DeviceFleet" && a.fleet === b.fleet;
}

/**
 * Records that `owner` declares `sn` in this deployment (called from `check`). A DeviceFleet
 * replaces its previous declarations first, so a serial number it no longer lists is not its own.
 */
export function declareSerials(owner: Owner, serials: readonly { sn: string; project?: string }[]): void {
  lastDeclarationAt = Date.now();
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
      (d) => d.kind === owner.kind && d.fleet === owner.fleet && d.project === declaration.project,
    );
    if (!known) list.push(declaration);
    declarations.set(key, list);
  }
}

/** Records that `owner` added or adopted the device `deviceId` (serial number `sn`) in this deployment. */
export function claimDevice(deviceId: string, sn: string, owner: Owner): void {
  claims.set(deviceId, { ...owner, sn });
}

/** Forgets the claim on a device, after its owner deleted it. */
export function releaseClaim(deviceId: string): void {
  claims.delete(deviceId);
}

/** Describes an owner for messages: `a Device resource` or `DeviceFleet site-a`. */
export function describeOwner(owner: Owner): string {
  return owner.kind === "Device" ? "a Device resource" : `DeviceFleet ${owner.fleet ?? ""}`.trim();
}

/**
 * Whom, other than `deleter`, the device belongs to in this deployment: a resource that claimed
 * it, or one that declares its serial number (and so will adopt it) — in any project: a project is
 * a tag, so that resource adopts the device and retags it in place.
 */
export function otherOwner(device: { deviceId: string; sn: string }, deleter: Owner): Owner | undefined {
  const claim = claims.get(device.deviceId);
  if (claim && !sameOwner(claim, deleter)) return claim;
  return declarations.get(serialKey(device.sn))?.find((d) => !sameOwner(d, deleter));
}

/** Time with no new declaration after which the engine has most likely checked every resource. */
const QUIET_MS = 300;
/** A delete never waits longer than this for declarations to settle. */
const MAX_WAIT_MS = 5_000;

/**
 * Waits until no resource has been checked for a short while, so that a delete that runs while the
 * engine is still registering resources sees the declarations of those registered after it (a
 * serial number moving from a fleet to a Device in one `up`, for example). Returns at once when
 * the registrations are long over, as they are for the deletes the engine runs at the end.
 */
export async function declarationsSettled(
  quietMs = QUIET_MS,
  maxWaitMs = MAX_WAIT_MS,
  now: () => number = Date.now,
): Promise<void> {
  const deadline = now() + maxWaitMs;
  while (lastDeclarationAt > 0 && now() - lastDeclarationAt < quietMs && now() < deadline) {
    const wait = Math.min(quietMs - (now() - lastDeclarationAt), deadline - now());
    await new Promise((resolve) => setTimeout(resolve, Math.max(1, wait)));
  }
}

/**
 * Another kind's declaration (an RPS record, `rps-ownership.ts`; a managed property,
 * `property-ownership.ts`) counts for {@link declarationsSettled} too.
 */
export function noteDeclaration(): void {
  lastDeclarationAt = Date.now();
}

/** A resource was checked: the engine is running the program (an `up` or a `preview`). */
export function noteProgramRan(): void {
  programChecked = true;
}

/**
 * Whether this deployment ran the program. In `pulumi destroy` the engine checks no resource, so a
 * delete then is the user's explicit wish; in an `up`, a resource is deleted because the program no
 * longer declares it — which a truncated inventory can cause, and what `maxRemovals` guards.
 */
export function programRan(): boolean {
  return programChecked;
}

/** Forgets every declaration and claim (tests). */
export function resetOwnership(): void {
  declarations.clear();
  claims.clear();
  lastDeclarationAt = 0;
  programChecked = false;
}
