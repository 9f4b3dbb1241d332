/**
 * Whether an RPS record a listing did not return is gone. Query Profile URL List takes no filter
 * (only paging and sorts) and the platform has no read of one record, so "looked up by its serial
 * number" is done with the sorted listing itself: a page sorted by serial number is one answer of
 * the platform at one moment, and when that one answer holds the records just before and just after
 * `sn` (or starts the listing after it, or ends it before it), the platform said at that moment
 * that it has no record of `sn`. Records on two different pages prove nothing — another writer may
 * have shifted the pages between the two requests — so a page that straddles the place of `sn` is
 * asked for again, cut so that its neighbours share one page.
 */
import type { DevicePlatformClient } from "../../sdk";
import { isLastPage } from "../shared/pages";
import { rpsListing, rpsPage, type ListedPage, type ListedRecord } from "./listing";

/** What the platform's answers say about the record of a serial number. */
export type RecordLookup =
  | { readonly state: "found"; readonly record: ListedRecord }
  | { readonly state: "gone" }
  /** No answer of the platform covers the place of the serial number (pages kept shifting). */
  | { readonly state: "unknown" };

const key = (sn: string) => sn.toUpperCase();

/** Whether the keys are strictly increasing: the order the proof relies on (else the page proves nothing). */
function ascending(keys: readonly string[]): boolean {
  return keys.every((k, i) => i === 0 || (keys[i - 1] as string) < k);
}

/**
 * Whether this one page proves the platform had no record of `sn` when it answered: sorted as
 * asked, without `sn`, and holding both its neighbours, or starting the listing after it, or
 * ending the listing before it. Pure.
 */
export function pageProvesAbsent(page: ListedPage, sn: string): boolean {
  const target = key(sn);
  const keys = page.records.map((r) => key(r.sn));
  if (!ascending(keys) || keys.includes(target)) return false;
  const first = keys[0];
  const last = keys[keys.length - 1];
  if (first === undefined || last === undefined) return page.pageNumber === 1 && page.total === 0;
  const isLast = isLastPage(
    { pageSize: page.size, total: page.total, content: keys },
    page.pageNumber,
    page.size,
  );
  if (target < first) return page.pageNumber === 1;
  if (target > last) return isLast;
  return true;
}

/**
 * The page to ask for so that positions `index - 1` and `index` (the neighbours of a serial number
 * that would sit at `index` of the sorted listing) come in one answer: a page size up to `size`
 * that does not cut between them. Undefined when none can (pages of one record).
 */
export function pageAround(
  index: number,
  size: number,
): { pageNumber: number; pageSize: number } | undefined {
  if (index <= 0) return { pageNumber: 1, pageSize: size };
  for (let pageSize = size; pageSize >= 2; pageSize -= 1) {
    if (index % pageSize !== 0) return { pageNumber: Math.floor(index / pageSize) + 1, pageSize };
  }
  return undefined;
}

/** The record of `sn`, or the platform's word that it has none, from the shared listing and at most one more page. */
export async function lookUpRpsRecord(client: DevicePlatformClient, sn: string): Promise<RecordLookup> {
  const listing = await rpsListing(client);
  const listed = listing.records.get(key(sn));
  if (listed) return { state: "found", record: listed };
  if (listing.pages.some((page) => pageProvesAbsent(page, sn))) return { state: "gone" };
  const size = listing.pages[0]?.size ?? 1;
  const index = [...listing.records.keys()].filter((k) => k < key(sn)).length;
  const around = pageAround(index, size);
  if (!around) return { state: "unknown" };
  const page = await rpsPage(client, around.pageNumber, around.pageSize);
  const found = page.records.find((r) => key(r.sn) === key(sn));
  if (found) return { state: "found", record: found };
  return pageProvesAbsent(page, sn) ? { state: "gone" } : { state: "unknown" };
}
