/**
 * One listing of the application's RPS records shared by concurrent reads: a refresh of many
 * RpsProfile resources pages through Query Profile URL List once instead of once per record.
 * Serial numbers are looked up without regard to case, as the platform compares them.
 */
import type { DevicePlatformClient } from "../../sdk";

/** How long a listing answers reads; a refresh's reads all arrive within this window. */
const LISTING_TTL_MS = 5_000;

/** A record as listed: the serial number as the platform spells it, and its URL. */
export interface ListedRecord {
  readonly sn: string;
  readonly profileUrl: string;
}

let listing: { at: number; records: Promise<Map<string, ListedRecord>> } | undefined;

async function loadAll(client: DevicePlatformClient): Promise<Map<string, ListedRecord>> {
  const records = new Map<string, ListedRecord>();
  for await (const record of client.listRpsProfiles()) records.set(record.sn.toUpperCase(), record);
  return records;
}

/** The RPS record of `sn` (any case), or undefined when it has none. */
export async function rpsRecordOf(
  client: DevicePlatformClient,
  sn: string,
): Promise<ListedRecord | undefined> {
  if (!listing || Date.now() - listing.at > LISTING_TTL_MS) {
    const records = loadAll(client);
    listing = { at: Date.now(), records };
    // A failed listing must not answer the next reads.
    records.catch(() => {
      if (listing?.records === records) listing = undefined;
    });
  }
  return (await listing.records).get(sn.toUpperCase());
}

/** The current profile URL of `sn`, or undefined when it has no RPS record. */
export async function rpsProfileUrl(client: DevicePlatformClient, sn: string): Promise<string | undefined> {
  return (await rpsRecordOf(client, sn))?.profileUrl;
}

/** Forgets the listing after this process changed a record, so no read sees a stale URL. */
export function invalidateRpsListing(): void {
  listing = undefined;
}
