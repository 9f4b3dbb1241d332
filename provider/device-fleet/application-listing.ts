/**
 * The paged search of a whole application, sorted and paged by what the platform answers.
 *
 * Sorted by deviceId: a device's id is unique and never changes, and the platform issues new ids
 * above old ones, so a device another writer adds meanwhile lands on the last page instead of
 * shifting the others (the document gives no default order). Paged by the page size the platform
 * answered with, which may be smaller than the 100 asked: the number of pages comes from page 1's
 * `total` at that size, and the listing goes on past it while the last page is full and the
 * platform's own `total` says there is more. A listing is still no snapshot — another writer's
 * delete shifts devices onto pages already read — so what it does not return proves nothing: see
 * `lookup.ts`, which reads such devices by id.
 */
import type { DevicePlatformClient, DeviceDetails, DeviceSearchResult } from "../../sdk";
import { forEachLimited } from "../shared/fanout";
import { isLastPage, PAGE_SIZE, pageSizeOf } from "../shared/pages";

const BY_DEVICE_ID = [{ property: "deviceId", direction: "asc" as const }];

/** One page of the sorted listing, of the devices carrying `tag` when one is given. */
export function searchPage(
  client: DevicePlatformClient,
  pageNumber: number,
  tag?: string,
): Promise<DeviceSearchResult> {
  const filter = tag === undefined ? {} : { tag: [tag] };
  return client.searchDevices({ pageNumber, pageSize: PAGE_SIZE, sorts: BY_DEVICE_ID, ...filter });
}

/**
 * Every device the listing returns (of those carrying `tag`, when given): page 1 (or `first`,
 * already fetched, with the same filter), then the pages its
 * `total` announces `concurrency` at a time, then one by one while the last page read says there
 * is more. ⌈M/100⌉ requests for M devices when the platform serves full pages of 100.
 */
export async function listAllDevices(
  client: DevicePlatformClient,
  concurrency: number,
  first?: DeviceSearchResult,
  tag?: string,
): Promise<DeviceDetails[]> {
  const page1 = first ?? (await searchPage(client, 1, tag));
  const size = pageSizeOf(page1);
  const found: DeviceDetails[][] = [page1.content];
  if (isLastPage(page1, 1, size)) return page1.content;
  const announced = Math.ceil(page1.total / size);
  const rest = Array.from({ length: Math.max(0, announced - 1) }, (_, i) => i + 2);
  let last = { page: page1, pageNumber: 1 };
  await forEachLimited(rest, concurrency, async (pageNumber) => {
    const page = await searchPage(client, pageNumber, tag);
    found.push(page.content);
    if (pageNumber > last.pageNumber) last = { page, pageNumber };
  });
  while (!isLastPage(last.page, last.pageNumber, size)) {
    const pageNumber = last.pageNumber + 1;
    last = { page: await searchPage(client, pageNumber, tag), pageNumber };
    found.push(last.page.content);
  }
  return found.flat();
}
