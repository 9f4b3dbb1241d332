/**
 * One listing of the application's RPS records shared by concurrent reads: a refresh of many
 * RpsProfile resources pages through Query Profile URL List once instead of once per record.
 * The listing is sorted by serial number and paged by the size the platform answered with; its
 * pages are kept, because each page is one answer of the platform at one moment — what
 * `record-lookup.ts` needs to tell "not in this listing" from "gone". Serial numbers are looked up
 * without regard to case, as the platform compares them.
 */
import type { DevicePlatformClient, RpsSearchResult } from "../../sdk";
import { isLastPage, PAGE_SIZE, pageSizeOf } from "../shared/pages";

/** How long a listing answers reads; a refresh's reads all arrive within this window. */
const LISTING_TTL_MS = 5_000;

const BY_SN = [{ property: "sn", direction: "asc" as const }];

/** A record as listed: the serial number as the platform spells it, and its URL. */
export interface ListedRecord {
  readonly sn: string;
  readonly profileUrl: string;
}

/** One page of the sorted listing, as the platform answered it. */
export interface ListedPage {
  readonly pageNumber: number;
  /** The size the platform cut the page at. */
  readonly size: number;
  readonly total: number;
  readonly records: readonly ListedRecord[];
}

/** A whole listing: records by upper-case serial number, and the pages they came in. */
export interface RpsListing {
  readonly records: ReadonlyMap<string, ListedRecord>;
  readonly pages: readonly ListedPage[];
}

let listing: { at: number; result: Promise<RpsListing> } | undefined;

/** One page of Query Profile URL List sorted by serial number. */
export async function rpsPage(
  client: DevicePlatformClient,
  pageNumber: number,
  pageSize = PAGE_SIZE,
): Promise<ListedPage> {
  const page: RpsSearchResult = await client.searchRpsProfiles({ pageNumber, pageSize, sorts: BY_SN });
  const size = Math.min(pageSize, pageSizeOf(page));
  return { pageNumber, size, total: page.total, records: page.content };
}

/** Every page, one after another, until the platform's answer says the last was read. */
async function loadAll(client: DevicePlatformClient): Promise<RpsListing> {
  const records = new Map<string, ListedRecord>();
  const pages: ListedPage[] = [];
  for (let pageNumber = 1; ; pageNumber += 1) {
    const page = await rpsPage(client, pageNumber);
    pages.push(page);
    for (const record of page.records) records.set(record.sn.toUpperCase(), record);
    const size = pages[0]?.size ?? page.size;
    if (isLastPage({ pageSize: size, total: page.total, content: page.records }, pageNumber, size)) break;
  }
  return { records, pages };
}

/** The shared listing (one per few seconds of reads). */
export async function rpsListing(client: DevicePlatformClient): Promise<RpsListing> {
  if (!listing || Date.now() - listing.at > LISTING_TTL_MS) {
    const result = loadAll(client);
    listing = { at: Date.now(), result };
    // A failed listing must not answer the next reads.
    result.catch(() => {
      if (listing?.result === result) listing = undefined;
    });
  }
  return listing.result;
}

/** The RPS record of `sn` (any case) in the shared listing, or undefined when the listing has none. */
export async function rpsRecordOf(
  client: DevicePlatformClient,
  sn: string,
): Promise<ListedRecord | undefined> {
  return (await rpsListing(client)).records.get(sn.toUpperCase());
}

/** The current profile URL of `sn` in the shared listing, or undefined when it lists none. */
export async function rpsProfileUrl(client: DevicePlatformClient, sn: string): Promise<string | undefined> {
  return (await rpsRecordOf(client, sn))?.profileUrl;
}

/** Forgets the listing after this process changed a record, so no read sees a stale URL. */
export function invalidateRpsListing(): void {
  listing = undefined;
}
