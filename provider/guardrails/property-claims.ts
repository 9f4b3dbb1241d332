/**
 * One property of one device has one owner at preview: two DeviceConfigs of a deployment that set
 * the same TSL property of the same device fail their check, naming both and both values. Without
 * this, the engine ran them in some order, the platform kept the last write, and the other's state
 * said a value the device does not have (900 in state, 1,200 on the platform), with endless drift.
 *
 * Resources are told apart by URN (both front-ends give it, see deployment/request-urn.ts); a check
 * without one is known by its device ids and properties, so that it is never mistaken for another
 * resource (a missed conflict, never a false one). The record is this process's: the engine runs
 * a program's DeviceConfigs of one front-end in one process. A second check of one resource in a
 * deployment replaces its claims.
 */
import type { CheckFailure } from "../shared/input-checks";
import { currentUrn } from "../deployment/request-urn";

interface Claim {
  readonly resource: string;
  readonly label: string;
  readonly value: unknown;
}

const claims = new Map<string, Claim>();

function pairKey(deviceId: string, key: string): string {
  return `${deviceId}\u0000${key}`;
}

/** `DeviceConfig "office-interval"` from a URN, or the resource's id. */
function labelOf(urn: string | undefined, id: string): string {
  const name = urn?.split("::").at(-1);
  return name === undefined ? `the DeviceConfig with id ${id}` : `DeviceConfig "${name}"`;
}

/**
 * Claims each (device, property) of `properties` on `deviceIds` for the current resource, and
 * returns a failure for each one another DeviceConfig of the deployment claimed first. `id` is the
 * resource's id (derived from its device ids), which names it when the call carries no URN.
 */
export function claimProperties(
  id: string,
  deviceIds: readonly string[],
  properties: Record<string, unknown>,
): CheckFailure[] {
  const urn = currentUrn();
  const resource = urn ?? `${id}\u0000${JSON.stringify(properties)}`;
  const label = labelOf(urn, id);
  for (const [pair, claim] of claims) if (claim.resource === resource) claims.delete(pair);
  const failures: CheckFailure[] = [];
  for (const [key, value] of Object.entries(properties)) {
    for (const deviceId of deviceIds) {
      const other = claims.get(pairKey(deviceId, key));
      if (other !== undefined && other.resource !== resource) {
        failures.push({
          property: `properties.${key}`,
          reason:
            `DeviceConfig.properties.${key}: ${label} sets ${key} of device ${deviceId} to ${JSON.stringify(value)}, ` +
            `and ${other.label} sets it to ${JSON.stringify(other.value)} in this deployment; one property of one ` +
            "device has one owner. Set it in one of them (the platform would keep whichever write came last)",
        });
        continue;
      }
      claims.set(pairKey(deviceId, key), { resource, label, value });
    }
  }
  return failures;
}

/** Forgets every claim (tests; a new deployment in one process). */
export function resetPropertyClaims(): void {
  claims.clear();
}
