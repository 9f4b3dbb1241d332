/**
 * One serial number, one resource: a serial number two resources of one deployment declare (two
 * fleets, a fleet and a Device, two Devices, in one provider process or across the processes of one
 * application: the dynamic provider host and each plugin instance) fails the `check` of the one
 * checked second, naming both, before any step runs — at preview as at `up`.
 *
 * Today's record (`ownership.ts`) keeps such declarations so that a delete never removes what
 * another resource declares; it accepted two declarations of one device without a word, and the
 * two resources then took the device in turn (each adopting it and writing its own name, project
 * and tags at every `up`). A policy cannot see this across stacks' provider instances (it sees one
 * resource, or the stack's outputs); the provider can, through the one-owner record.
 *
 * Two declarations are two resources when that is proven: another process's (a resource is served
 * by one process), two kinds, two URNs, or two fleet names. Two Devices of one process of which one
 * or both lack a URN (the dynamic host's first check carries none) are two when their checked
 * inputs differ (a resource checked twice in one deployment is checked with its one set of inputs);
 * with the same inputs they are not proven two: the one-owner record still keeps a delete of
 * either from removing the device, and the pack's stack policy names both.
 *
 * An RpsFleet that declares the record of a serial number a device resource declares is refused
 * too, whichever is checked first: the batch's check looks for devices, and the device's check
 * here looks for batches (a device on the platform can have no RPS record, so the two cannot both
 * be met; a handover drops the serial number from the batch's declaration).
 */
import type { CheckFailure } from "../shared/input-checks";
import { declarersOf, type Owner } from "./ownership";
import { batchesDeclaring } from "./rps-ownership";
import { catchUpWithOthers } from "../deployment/shared-record";

function provenTwo(own: Owner, other: Owner): boolean {
  if (other.elsewhere || own.kind !== other.kind) return true;
  if (own.urn !== undefined && other.urn !== undefined) return own.urn !== other.urn;
  if (own.kind === "DeviceFleet") return own.fleet !== other.fleet;
  // One Device with a URN and one without, in one process, may be one resource checked twice: the
  // dynamic host checks a resource again without its URN (seen on Pulumi's launcher when the
  // provider's configuration changed between two ups, `secrets-stay-out`) — with the same inputs.
  return own.inputs !== undefined && other.inputs !== undefined && own.inputs !== other.inputs;
}

/** The resource's name: the URN's last part, a fleet's name, or none. */
function nameOf(owner: Owner): string | undefined {
  if (owner.urn !== undefined) return owner.urn.split("::").slice(3).join("::");
  return owner.fleet;
}

/** `DeviceFleet "site-a"`, `Device "gw-1"`, with where it is served when that is another process. */
export function describeDeclarer(owner: Owner): string {
  const name = nameOf(owner);
  const named = name === undefined ? `a ${owner.kind} resource` : `${owner.kind} "${name}"`;
  return owner.elsewhere ? `${named} (served by another provider process of this deployment)` : named;
}

/**
 * The check failures for the serial numbers `owner` declares (already recorded by `declareSerials`)
 * that another resource of the deployment declares too; `property` is where the owner's input
 * holds them (`sn`; `""` for a fleet, whose whole list the engine would print with the failure). Reads the deployment's other processes' record first: of two
 * resources checked at once in two processes, each publishes before it reads, so at least one sees
 * the other. Throws as `catchUpWithOthers` does when that record cannot be read.
 */
export async function serialsDeclaredTwice(
  owner: Owner,
  serials: readonly string[],
  property: string,
): Promise<CheckFailure[]> {
  await catchUpWithOthers();
  const failures: CheckFailure[] = [];
  for (const sn of serials) {
    const others = declarersOf(sn).filter((other) => provenTwo(owner, other));
    const batches = batchesDeclaring(sn).map((batch) => `RpsFleet "${batch}" (as an RPS record)`);
    if (others.length === 0 && batches.length === 0) continue;
    const named = [...new Set(others.map(describeDeclarer)), ...batches].join(" and ");
    const rule =
      others.length > 0
        ? "a device can be declared by one resource of a deployment only (each would take it from the other at " +
          "every up); remove it from all but one"
        : "a device on the platform can have no RPS record (the platform refuses the add while the record " +
          "exists); to hand the record over to the device, remove it from the batch";
    failures.push({
      property,
      reason: `serial number ${sn} is declared by ${describeDeclarer(owner)} and by ${named}: ${rule}`,
    });
  }
  return failures;
}
