/**
 * The first step of a fleet's `up` (and the whole of its delete): the devices it no longer
 * declares leave it. In order: those another resource of the deployment now manages are only
 * forgotten (the one-owner record says who); the rest are looked up (one lookup for all,
 * `lookup.ts`); each is deleted unless another stack's owner tag is on it or its id now carries
 * another serial number; each leaves the ledger. Released devices are only forgotten. Removals come
 * before adds so that a serial number can move between fleets, or to a Device, in one `up`.
 */
import { NotFoundError, type Device as PlatformDevice } from "../../sdk";
import { refuseOtherOwner } from "../device/owner-check";
import { declarationsSettled, describeOwner, otherOwner, releaseClaim } from "../guardrails/ownership";
import { log } from "../output/log";
import { sameSerial } from "../shared/serial-numbers";
import { eachDevice, fail, type FleetRun } from "./fleet-run";
import { findDevices } from "./lookup";
import { listSome } from "./message";

/**
 * Removes devices from the fleet: released ones are only forgotten; the others are deleted —
 * unless another resource of this deployment took the device or declares it (then it is released
 * with a warning), or the device no longer carries the recorded serial number.
 */
export async function removeDevices(
  run: FleetRun,
  serials: readonly string[],
  release: boolean,
): Promise<void> {
  if (serials.length === 0) return;
  if (release) {
    for (const sn of serials) run.ledger.forget(sn);
    run.progress.advance(serials.length);
    return;
  }
  const toDelete = await notManagedElsewhere(run, serials);
  const ids = toDelete.map((sn) => run.ledger.deviceIdOf(sn) as string);
  const wanted = { deviceIds: ids, carrying: run.ledger.carrying() };
  const index = await findDevices(run.client, wanted, run.settings.concurrency);
  const failures = await eachDevice(run, toDelete, (sn: string) =>
    deleteOne(run, sn, index.byId.get(run.ledger.deviceIdOf(sn) as string)),
  );
  for (const { item, error } of failures) fail(run, item, "delete", error);
}

/**
 * Of `serials`, those no other resource of this deployment manages now; the others leave the
 * ledger and stay on the platform, with a warning.
 */
async function notManagedElsewhere(run: FleetRun, serials: readonly string[]): Promise<string[]> {
  // A removal may run while the engine still registers resources: wait for their declarations.
  await declarationsSettled();
  const kept: string[] = [];
  const toDelete: string[] = [];
  for (const sn of serials) {
    const deviceId = run.ledger.deviceIdOf(sn) as string;
    const other = otherOwner({ deviceId, sn }, run.owner);
    if (!other) {
      toDelete.push(sn);
      continue;
    }
    kept.push(`${sn} (deviceId ${deviceId}, now managed by ${describeOwner(other)})`);
    run.ledger.forget(sn);
  }
  run.progress.advance(kept.length);
  if (kept.length > 0) {
    await log.warn(
      `DeviceFleet ${run.fleet}: not deleting ${kept.length} removed device(s) that another resource of this ` +
        `deployment now manages; they stay on the platform: ${listSome(kept)}`,
    );
  }
  return toDelete;
}

/**
 * Deletes one device after checking it is still the one recorded. `found` undefined means the
 * platform answered `device_not_found` for its id (see `findDevices`): already gone, done.
 */
async function deleteOne(run: FleetRun, sn: string, found: PlatformDevice | undefined): Promise<void> {
  const deviceId = run.ledger.deviceIdOf(sn) as string;
  const ownedElsewhere = found && refuseOtherOwner(found, run.marker, run.ledger.ownMarkers());
  if (found && !sameSerial(found.sn, sn)) {
    await log.warn(
      `DeviceFleet ${run.fleet}: not deleting deviceId ${deviceId}, which now carries serial number ` +
        `${found.sn ?? "(none)"} instead of ${sn}; the fleet forgets it and the platform keeps it`,
    );
  } else if (ownedElsewhere) {
    await log.warn(`DeviceFleet ${run.fleet}: not deleting ${sn} (deviceId ${deviceId}): ${ownedElsewhere}`);
  } else if (found) {
    try {
      await run.client.deleteDevice(deviceId);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  run.ledger.forget(sn);
  releaseClaim(deviceId);
}
