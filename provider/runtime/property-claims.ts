/**
 * One property of one device has one owner at preview: two DeviceConfigs of a deployment that set
 * the same TSL property of the same device fail their check, naming both (and this one's value).
 * Without this, the engine ran them in some order, the platform kept the last write, and the
 * other's state said a value the device does not have (900 in state, 1,200 on the platform), with
 * endless drift.
 *
 * Resources are told apart by URN (both front-ends give it, see runtime/request-urn.ts); a check
 * without one is known by its device ids and properties, so that it is never mistaken for another
 * resource (a missed conflict, never a false one). A front-end's DeviceConfigs are checked in one
 * process; the deployment's other provider processes (the plugin beside the dynamic host, another
 * plugin instance) publish their claims through the one-owner record (`shared-record.ts`), without
 * the values, which may be secrets. A resource is served by one process, so another process's claim
 * is always another resource's. A second check of one resource in a deployment replaces its claims.
 */
import { createHash } from "node:crypto";
import type { CheckFailure } from "../shared/input-checks";
import { currentUrn } from "./request-urn";
import { catchUpWithOthers, onOthersFact, publish } from "./shared-record";

interface Claim {
  readonly resource: string;
  readonly label: string;
  readonly value: unknown;
}

const claims = new Map<string, Claim>();
/** Other processes' claims: writer and resource → the resource's label and its pairs. */
const remoteClaims = new Map<string, { label: string; pairs: Set<string> }>();

onOthersFact((fact, writer) => {
  if (fact.t !== "property-claim") return;
  const pairs = new Set(fact.deviceIds.flatMap((deviceId) => fact.keys.map((key) => pairKey(deviceId, key))));
  remoteClaims.set(`${writer}\u0000${fact.resource}`, { label: fact.label, pairs });
});

function pairKey(deviceId: string, key: string): string {
  return `${deviceId}\u0000${key}`;
}

/** `DeviceConfig "office-interval"` from a URN, or the resource's id. */
function labelOf(urn: string | undefined, id: string): string {
  const name = urn?.split("::").at(-1);
  return name === undefined ? `the DeviceConfig with id ${id}` : `DeviceConfig "${name}"`;
}

function conflict(key: string, deviceId: string, label: string, value: unknown, other: string): CheckFailure {
  return {
    property: `properties.${key}`,
    reason:
      `DeviceConfig.properties.${key}: ${label} sets ${key} of device ${deviceId} to ${JSON.stringify(value)}, ` +
      `and ${other} in this deployment; one property of one device has one owner. Set it in one of them ` +
      "(the platform would keep whichever write came last)",
  };
}

/** This process's claims of the resource, and the failures for pairs another resource claimed first. */
function claimHere(
  resource: string,
  label: string,
  deviceIds: readonly string[],
  properties: Record<string, unknown>,
): CheckFailure[] {
  for (const [pair, claim] of claims) if (claim.resource === resource) claims.delete(pair);
  const failures: CheckFailure[] = [];
  for (const [key, value] of Object.entries(properties)) {
    for (const deviceId of deviceIds) {
      const other = claims.get(pairKey(deviceId, key));
      if (other !== undefined && other.resource !== resource) {
        failures.push(
          conflict(key, deviceId, label, value, `${other.label} sets it to ${JSON.stringify(other.value)}`),
        );
        continue;
      }
      claims.set(pairKey(deviceId, key), { resource, label, value });
    }
  }
  return failures;
}

/**
 * Claims each (device, property) of `properties` on `deviceIds` for the current resource, and
 * returns a failure for each one another DeviceConfig of the deployment claims: in this process
 * (claimed first), or in another provider process of the deployment. Publishes before it reads, so
 * that of two resources checked at once in two processes at least one sees the other. `id` is the
 * resource's id (derived from its device ids), which names it when the call carries no URN. Throws
 * as `catchUpWithOthers` does when the other processes' record cannot be read.
 */
export async function claimProperties(
  id: string,
  deviceIds: readonly string[],
  properties: Record<string, unknown>,
): Promise<CheckFailure[]> {
  const urn = currentUrn();
  // Without a URN: the ids and a digest of the properties (their values stay out of the record).
  const resource =
    urn ?? `${id}\u0000${createHash("sha256").update(JSON.stringify(properties)).digest("hex")}`;
  const label = labelOf(urn, id);
  const failures = claimHere(resource, label, deviceIds, properties);
  const keys = Object.keys(properties);
  publish({ t: "property-claim", resource, label, deviceIds: [...deviceIds], keys });
  await catchUpWithOthers();
  const reported = new Set(failures.map((f) => f.reason));
  for (const other of remoteClaims.values()) {
    for (const key of keys) {
      for (const deviceId of deviceIds) {
        if (!other.pairs.has(pairKey(deviceId, key))) continue;
        const failure = conflict(
          key,
          deviceId,
          label,
          properties[key],
          `${other.label} (served by another provider process of this deployment) sets it too`,
        );
        if (!reported.has(failure.reason)) failures.push(failure);
        reported.add(failure.reason);
      }
    }
  }
  return failures;
}

/** Forgets every claim (tests; a new deployment in one process). */
export function resetPropertyClaims(): void {
  claims.clear();
  remoteClaims.clear();
}
