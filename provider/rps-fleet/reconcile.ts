/**
 * A batch's plan carried out with the platform's RPS operations, `concurrency` at a time: removals
 * first (Delete RPS Record; already gone counts as deleted), then adds and URL changes (Specify the
 * Profile URL for RPS, which replaces a record's URL). A new batch reads the application's records
 * once (the paged listing) and adopts those already there with the declared URL without a write.
 * Each record that succeeds is recorded in the ledger at once, so that a run that fails part way
 * records exactly what was done; one record's failure does not stop the others, a spent daily quota
 * stops the run.
 */
import type { DevicePlatformClient } from "../../sdk";
import { ConflictError, NotFoundError, type QuotaExhaustedError } from "../../sdk/errors";
import { invalidateRpsListing, rpsListing } from "../rps-profile/listing";
import { operationFailed, ResourceOperationError } from "../shared/errors";
import { forEachSettled } from "../shared/fanout";
import { isQuotaRefusal, quotaRefusalOf } from "../shared/quota";
import type { RpsEntries, RpsFleetSettings } from "./inputs";
import type { RpsFleetPlan } from "./plan";
import type { RpsLedger } from "./state";

/** One record that could not be done, with the platform's words. */
export interface RecordFailure {
  readonly sn: string;
  readonly message: string;
}

/** Everything one operation on a batch works with. */
export interface RpsRun {
  readonly client: DevicePlatformClient;
  readonly batch: string;
  /** E.g. `update RpsFleet shipment-7`. */
  readonly operation: string;
  readonly settings: RpsFleetSettings;
  readonly ledger: RpsLedger;
  readonly failures: RecordFailure[];
  quota?: QuotaExhaustedError;
}

async function settle<T>(run: RpsRun, items: readonly T[], what: string, task: (item: T) => Promise<void>) {
  const failures = await forEachSettled(items, run.settings.concurrency, task, { stopOn: isQuotaRefusal });
  for (const { item, error } of failures) {
    const refusal = quotaRefusalOf(error);
    if (refusal) run.quota ??= refusal;
    else {
      const sn = typeof item === "string" ? item : (item as { sn: string }).sn;
      run.failures.push({ sn, message: operationFailed(`${what} ${sn}`, error).message });
    }
  }
}

/** Deletes the records of `serials` (gone already counts as deleted) and forgets each deleted one. */
export async function deleteRecords(run: RpsRun, serials: readonly string[]): Promise<void> {
  if (serials.length > 0) invalidateRpsListing();
  await settle(run, serials, "delete RPS record", async (sn) => {
    try {
      await run.client.deleteRpsProfile(sn);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
    run.ledger.forget(sn);
  });
}

async function specify(run: RpsRun, sn: string, profileUrl: string): Promise<void> {
  try {
    await run.client.setRpsProfile({ sn, profileUrl });
  } catch (error) {
    if (error instanceof ConflictError && error.errCode === "device_on_platform") {
      throw new ResourceOperationError(
        `specify RPS record ${sn} failed: the device ${sn} is already on the platform, and RPS profiles can only be given to devices that are ` +
          `not; remove the device first, or drop ${sn} from the batch (${error.message})`,
        { cause: error, code: error.code },
      );
    }
    throw error;
  }
  run.ledger.set(sn, profileUrl);
}

/**
 * Adds and changes records; `adopt` (a new batch) reads the listing first and records without a
 * write those the platform has with the declared URL.
 */
export async function specifyRecords(
  run: RpsRun,
  records: readonly { sn: string; profileUrl: string }[],
  adopt: boolean,
): Promise<number> {
  let adopted = 0;
  let writes = records;
  if (adopt && records.length > 0) {
    invalidateRpsListing();
    const listing = await rpsListing(run.client);
    writes = records.filter(({ sn, profileUrl }) => {
      if (listing.records.get(sn.toUpperCase())?.profileUrl !== profileUrl) return true;
      run.ledger.set(sn, profileUrl);
      adopted += 1;
      return false;
    });
  }
  if (writes.length > 0) invalidateRpsListing();
  await settle(run, writes, "specify RPS record", ({ sn, profileUrl }) => specify(run, sn, profileUrl));
  return adopted;
}

/**
 * Carries out `plan` (removals first: `deleting`, the removals to delete; the others were left for
 * another RPS resource and are only forgotten). Returns how many adds were adopted without a write.
 */
export async function applyRpsPlan(
  run: RpsRun,
  plan: RpsFleetPlan,
  declared: RpsEntries,
  deleting: readonly string[],
  adopt: boolean,
): Promise<number> {
  const deleted = new Set(deleting.map((sn) => sn.toUpperCase()));
  for (const sn of plan.removals) if (!deleted.has(sn.toUpperCase())) run.ledger.forget(sn);
  await deleteRecords(run, deleting);
  if (run.quota) return 0;
  const writes = [
    ...plan.adds.map((sn) => ({ sn, profileUrl: declared[sn] as string })),
    ...plan.updates.map(({ sn, to }) => ({ sn, profileUrl: to })),
  ];
  return specifyRecords(run, writes, adopt);
}
