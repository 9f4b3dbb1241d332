/**
 * Carrying out a fleet's plan: removals (and RPS take-overs) before adds, so that a serial number
 * can move between fleets, or between a fleet and a Device, in one `up`; then adds (or adoptions),
 * then one PUT per changed device. Work on different devices runs `concurrency` at a time, and one
 * device's failure never stops the others: every device done is recorded in the ledger, every
 * failure collected, so the state says exactly what was done.
 */
import { ConflictError, NotFoundError, type Device as PlatformDevice } from "../../sdk";
import { adoptDevice, adoptionRefusal } from "../device/adoption";
import { confirmProject, ProjectNotAppliedError, withProject } from "../device/project-tag";
import { addBody, updateBody } from "../device/desired";
import { sameSerial } from "../shared/serial-numbers";
import { removedRpsNote, takeOverRpsRecord } from "../device/rps-takeover";
import {
  claimDevice,
  declarationsSettled,
  describeOwner,
  otherOwner,
  releaseClaim,
} from "../guardrails/ownership";
import { operationFailed, ResourceOperationError } from "../shared/errors";
import { tslVersionApplied } from "../tsl/versions";
import { mayTakeOver, type FleetEntries, type FleetEntry } from "./inputs";
import { counted, fail, fleetOwner, fleetProgress, settle, type FleetRun } from "./fleet-run";
import { findDevices, type PlatformIndex } from "./lookup";
import { listSome } from "./message";
import type { FleetPlan, PlannedUpdate } from "./plan";
import { completeInfo } from "./device-info";
import { entryFromPlatform, infoOf } from "./state";
import { log } from "../output/log";
import { refuseOtherOwner } from "../device/owner-check";
import { checkOwners, markDevices, takeOverHint } from "./owner-marks";

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
    run.progress?.advance(serials.length);
    return;
  }
  // A removal may run while the engine still registers resources: wait for their declarations.
  await declarationsSettled();
  const owner = fleetOwner(run.fleet, run.leaving);
  const kept: string[] = [];
  const toDelete: string[] = [];
  for (const sn of serials) {
    const deviceId = run.ledger.deviceIdOf(sn) as string;
    const other = otherOwner({ deviceId, sn }, owner);
    if (!other) {
      toDelete.push(sn);
      continue;
    }
    kept.push(`${sn} (deviceId ${deviceId}, now managed by ${describeOwner(other)})`);
    run.ledger.forget(sn);
  }
  run.progress?.advance(kept.length);
  if (kept.length > 0) {
    await log.warn(
      `DeviceFleet ${run.fleet}: not deleting ${kept.length} removed device(s) that another resource of this ` +
        `deployment now manages; they stay on the platform: ${listSome(kept)}`,
    );
  }
  const ids = toDelete.map((sn) => run.ledger.deviceIdOf(sn) as string);
  const wanted = { deviceIds: ids, carrying: run.ledger.carrying() };
  const index = await findDevices(run.client, wanted, run.settings.concurrency);
  const failures = await settle(
    run,
    toDelete,
    counted(run, (sn: string) => deleteOne(run, sn, index.byId.get(run.ledger.deviceIdOf(sn) as string))),
  );
  for (const { item, error } of failures) fail(run, item, "delete", error);
}

/** Adopts a device already in the application; records it even when only its PUT failed. */
async function adoptOne(
  run: FleetRun,
  sn: string,
  entry: FleetEntry,
  existing: PlatformDevice,
): Promise<void> {
  const want = { ...entry, sn };
  const options = {
    adoptExisting: run.settings.adoptExisting,
    owner: fleetOwner(run.fleet),
    operation: `${run.operation}: adopt ${sn}`,
    marker: run.marker,
    takeOver: mayTakeOver(run.settings, sn, existing.tag),
    takeOverHint: takeOverHint(sn),
  };
  const refusal = adoptionRefusal(existing, options);
  if (refusal) throw refusal;
  try {
    const adoption = await adoptDevice(run.client, existing, want, options);
    if (entry.tslVersion) tslVersionApplied(existing.deviceId, entry.tslVersion);
    run.ledger.record(sn, existing.deviceId, entry, infoOf(existing));
    run.ledger.setMarked(sn);
    if (adoption.takenFrom !== undefined) {
      await log.warn(
        `DeviceFleet ${run.fleet}: took ${sn} (deviceId ${existing.deviceId}) over from stack "${adoption.takenFrom}"`,
      );
    }
  } catch (error) {
    // Adopted, but not (wholly) updated: record what the platform has, so the next `up` sends the PUT.
    const platform = error instanceof ProjectNotAppliedError ? error.device : existing;
    run.ledger.record(sn, existing.deviceId, entryFromPlatform(platform, sn), infoOf(existing));
    throw error;
  }
}

/** Adds one device (or adopts it, when someone added it since the lookup), then sets its TSL version. */
async function addOne(
  run: FleetRun,
  sn: string,
  entry: FleetEntry,
  removedRpsUrl: string | undefined,
): Promise<void> {
  let added;
  try {
    added = await run.client.addDevice(addBody({ ...entry, sn }, run.marker));
  } catch (error) {
    if (error instanceof ConflictError && error.errCode === "device_already_exists") {
      const raced = await run.client.findDeviceBySn(sn);
      if (raced) return adoptOne(run, sn, entry, raced);
    }
    if (removedRpsUrl === undefined) throw error;
    const failure = operationFailed(`add ${sn}`, error);
    throw new ResourceOperationError(`${failure.message}. ${removedRpsNote(sn, removedRpsUrl)}`, {
      cause: error,
    });
  }
  claimDevice(added.deviceId, sn, fleetOwner(run.fleet));
  const { tslVersion, ...withoutVersion } = entry;
  run.ledger.record(sn, added.deviceId, withoutVersion, {
    deviceId: added.deviceId,
    ...(added.devEUI ? { devEUI: added.devEUI } : {}),
    ...(added.imei ? { imei: added.imei } : {}),
  });
  run.ledger.setMarked(sn);
  if (tslVersion) {
    await run.client.updateDevice(updateBody(added.deviceId, { ...entry, sn }, run.marker));
    tslVersionApplied(added.deviceId, tslVersion);
    run.ledger.setApplied(sn, entry);
  }
}

/** Deletes the RPS records of serial numbers about to be added; returns sn (upper case) → removed URL. */
async function takeOverRps(run: FleetRun, serials: readonly string[]): Promise<Map<string, string>> {
  const removed = new Map<string, string>();
  const failures = await settle(run, serials, async (sn) => {
    const url = await takeOverRpsRecord(run.client, sn);
    if (url !== undefined) removed.set(sn.toUpperCase(), url);
  });
  for (const { item, error } of failures) fail(run, item, "take over the RPS record of", error);
  return removed;
}

/** Adds or adopts the declared devices the fleet does not manage yet. */
async function addDevices(
  run: FleetRun,
  serials: readonly string[],
  declared: FleetEntries,
  known?: PlatformIndex,
) {
  if (serials.length === 0) return;
  const index = known ?? (await findDevices(run.client, { serials }, run.settings.concurrency));
  const absent = serials.filter((sn) => !index.bySn.has(sn.toUpperCase()));
  const rpsTaken = run.settings.takeOverRps ? await takeOverRps(run, absent) : new Map<string, string>();
  if (run.quota) return;
  const failedRps = new Set(run.failures.map((f) => f.sn));
  const todo = serials.filter((sn) => !failedRps.has(sn));
  run.progress?.advance(serials.length - todo.length);
  const failures = await settle(
    run,
    todo,
    counted(run, async (sn: string) => {
      const entry = declared[sn] as FleetEntry;
      const existing = index.bySn.get(sn.toUpperCase());
      if (existing) await adoptOne(run, sn, entry, existing);
      else await addOne(run, sn, entry, rpsTaken.get(sn.toUpperCase()));
    }),
  );
  for (const { item, error } of failures) fail(run, item, "add", error);
  if (!run.quota) await completeInfo(run.client, run.ledger, serials, run.settings.concurrency);
}

/**
 * One PUT of the whole declared state for each changed device. A device whose project changes is
 * then confirmed (one GET, unless the answer reports the project): a platform that ignored the
 * project fails that device, naming it, and the fleet records the project the platform has.
 */
async function updateDevices(
  run: FleetRun,
  updates: readonly PlannedUpdate[],
  declared: FleetEntries,
): Promise<void> {
  const failures = await settle(
    run,
    updates,
    counted(run, async ({ sn, fields }: PlannedUpdate) => {
      const entry = declared[sn] as FleetEntry;
      const deviceId = run.ledger.deviceIdOf(sn) as string;
      const want = { ...entry, sn };
      const answer = await run.client.updateDevice(updateBody(deviceId, want, run.marker));
      if (entry.tslVersion) tslVersionApplied(deviceId, entry.tslVersion);
      // Recorded under the declared spelling of the serial number.
      const info = run.ledger.infoOf(sn);
      const before = run.ledger.appliedOf(sn);
      run.ledger.forget(sn);
      try {
        if (fields.includes("project")) {
          await confirmProject(run.client, deviceId, answer, want, `${run.operation}: update ${sn}`);
        }
        run.ledger.record(sn, deviceId, entry, info);
        run.ledger.setMarked(sn);
      } catch (error) {
        // Everything but the project is applied; the project as the platform has it (or, unconfirmed,
        // as it was), so that the next `up` sends it again.
        const project = error instanceof ProjectNotAppliedError ? error.device.project : before?.project;
        run.ledger.record(sn, deviceId, withProject(entry, project), info);
        run.ledger.setMarked(sn);
        throw error;
      }
    }),
  );
  for (const { item, error } of failures) fail(run, item.sn, "update", error);
}

/**
 * Carries out `plan`: removals, adds and adoptions, updates (a changed project is an update).
 * `known` is a lookup of the declared serial numbers made moments ago (the preview message of a
 * new fleet), reused instead of asking the platform again.
 */
export async function applyPlan(
  run: FleetRun,
  plan: FleetPlan,
  declared: FleetEntries,
  known?: PlatformIndex,
): Promise<void> {
  const total = plan.removals.length + plan.adds.length + plan.updates.length + plan.marks.length;
  run.progress ??= fleetProgress(run.fleet, total);
  run.ledger.useMarker(run.marker);
  await removeDevices(run, plan.removals, run.settings.onRemove === "release");
  if (!run.quota) await addDevices(run, plan.adds, declared, known);
  if (run.quota) return;
  const { updates, marks, refused } = await checkOwners(run, plan);
  for (const { item, error } of refused) fail(run, item, "update", error);
  run.progress.advance(plan.updates.length - updates.length + plan.marks.length - marks.length);
  await updateDevices(run, updates, declared);
  if (run.quota) return;
  const advance = () => run.progress?.advance();
  for (const { item, error } of await markDevices(run, marks, declared, advance)) {
    fail(run, item, "give the owner tag to", error);
  }
}
