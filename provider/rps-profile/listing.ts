/**
 * One listing of the application's RPS records shared by concurrent reads: a refresh of many
 * RpsProfile resources pages through Query Profile URL List once instead of once per record.
 */
import type { DevicePlatformClient } from "../../sdk";

/** How long a listing answers reads; a refresh's reads all arrive within this window. */
const LISTING_TTL_MS = 5_000;

let listing: { at: number; records: Promise<Map<string, string>> } | undefined;

async function loadAll(client: DevicePlatformClient): Promise<Map<string, string>> {
  const records = new Map<string, string>();
  for await (const record of client.listRpsProfiles()) records.set(record.sn, record.profileUrl);
  return records;
}

/** The current profile URL of `sn`, or undefined when it has no RPS record. */
export async function rpsProfileUrl(client: DevicePlatformClient, sn: string): Promise<string | undefined> {
  if (!listing || Date.now() - listing.at > LISTING_TTL_MS) {
    const records = loadAll(client);
    listing = { at: Date.now(), records };
    // A failed listing must not answer the next reads.
    records.catch(() => {
      if (listing?.records === records) listing = undefined;
    });
  }
  return (await listing.records).get(sn);
}

/** Forgets the listing after this process changed a record, so no read sees a stale URL. */
export function invalidateRpsListing(): void {
  listing = undefined;
}
