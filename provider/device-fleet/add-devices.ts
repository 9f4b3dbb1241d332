/**
 * The second step of a fleet's `up`: the declared devices it does not manage yet join it. In
 * order: one lookup of their serial numbers (`lookup.ts`); the RPS records of those not on the
 * platform are deleted (`takeOverRps`, when the fleet says so); each device already in the
 * application is adopted — refused for another stack's owner tag or `adoptExisting: false`, else
 * one PUT when it differs — and each other one added (then its TSL version set); each is recorded in
 * the ledger as it ends; last, one lookup records the model and device type that adding does not
 * report.
 */
import { ConflictError, type Device as PlatformDevice } from "../../sdk";
import { adoptDevice, adoptionRefusal } from "../device/adoption";
import { addBody, updateBody } from "../device/desired";
import { ProjectNotAppliedError } from "../device/project-tag";
import { removedRpsNote, takeOverRpsRecord } from "../device/rps-takeover";
import { claimDevice } from "../guardrails/ownership";
import { log } from "../output/log";
import { operationFailed, ResourceOperationError } from "../shared/errors";
import { tslVersionApplied } from "../tsl/versions";
import { eachDevice, fail, settle, type FleetRun } from "./fleet-run";
import { mayTakeOver, type FleetEntries, type FleetEntry } from "./inputs";
import { findDevices, type PlatformIndex } from "./lookup";
import { takeOverHint } from "./owner-marks";
import { devicesWithoutInfo } from "./request-count";
import { entryFromPlatform, infoOf } from "./state";

/**
 * Adds or adopts the declared devices the fleet does not manage yet. `known` is a lookup of the
 * declared serial numbers made moments ago (the preview message of a new fleet), reused instead of
 * asking the platform again.
 */
export async function addDevices(
  run: FleetRun,
  serials: readonly string[],
  declared: FleetEntries,
  known?: PlatformIndex,
): Promise<void> {
  if (serials.length === 0) return;
  const index = known ?? (await findDevices(run.client, { serials }, run.settings.concurrency));
  const absent = serials.filter((sn) => !index.bySn.has(sn.toUpperCase()));
  const rpsTaken = run.settings.takeOverRps ? await takeOverRps(run, absent) : new Map<string, string>();
  if (run.quota) return;
  const failedRps = new Set(run.failures.map((f) => f.sn));
  const todo = serials.filter((sn) => !failedRps.has(sn));
  run.progress.advance(serials.length - todo.length);
  const failures = await eachDevice(run, todo, async (sn: string) => {
    const entry = declared[sn] as FleetEntry;
    const existing = index.bySn.get(sn.toUpperCase());
    if (existing) await adoptOne(run, sn, entry, existing);
    else await addOne(run, sn, entry, rpsTaken.get(sn.toUpperCase()));
  });
  for (const { item, error } of failures) fail(run, item, "add", error);
  if (!run.quota) await completeInfo(run, serials);
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
    owner: run.owner,
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
  claimDevice(added.deviceId, sn, run.owner);
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

/**
 * Records the model and device type, which Add a Device does not report, of `added` and of every
 * managed device an earlier `up` recorded without them (a spent daily quota stopped it first).
 */
async function completeInfo(run: FleetRun, added: readonly string[]): Promise<void> {
  const { ledger } = run;
  const serials = [...new Set([...added, ...devicesWithoutInfo(ledger)])];
  const missing = serials.filter((sn) => ledger.deviceIdOf(sn) && ledger.infoOf(sn)?.model === undefined);
  if (missing.length === 0) return;
  const ids = missing.map((sn) => ledger.deviceIdOf(sn) as string);
  // By the stack's owner tag, which the devices just added carry: ⌈M/100⌉ searches for a fleet of M
  // however many devices other stacks keep in the application (20 stacks × 5,000 listed the whole
  // application, 1,000 searches each, at the end of every up).
  const wanted = { deviceIds: ids, carrying: ledger.carrying() };
  const index = await findDevices(run.client, wanted, run.settings.concurrency);
  for (const sn of missing) {
    const device = index.byId.get(ledger.deviceIdOf(sn) as string);
    if (device) ledger.setInfo(sn, infoOf(device));
  }
}
