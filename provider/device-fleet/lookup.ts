/**
 * Finding many devices of the application with as few requests as possible: one request per
 * device when there are few of them, the paged search of the whole application (⌈M/100⌉ requests
 * for M devices) when that is fewer requests. A fleet of 10,000 is refreshed, planned and verified
 * with 100 searches, never 10,000 GETs — plus one GET for each wanted device the listing missed,
 * because only the platform's not-found for that device says it is gone.
 */
import {
  NotFoundError,
  type DevicePlatformClient,
  type Device as PlatformDevice,
  type DeviceSearchResult,
} from "../../sdk";
import { forEachLimited } from "../shared/fanout";
import { pageSizeOf } from "../shared/pages";
import { listAllDevices, searchPage } from "./application-listing";

/** Up to this many devices are looked up one by one without first asking how big the application is. */
export const FEW = 5;

/** Devices found, by upper-case serial number and by deviceId. */
export interface PlatformIndex {
  readonly bySn: ReadonlyMap<string, PlatformDevice>;
  readonly byId: ReadonlyMap<string, PlatformDevice>;
  /** The application's device count by the first search page's `total`, when one was read. */
  readonly applicationSize?: number;
}

/** What to look for. */
export interface Wanted {
  readonly serials?: readonly string[];
  readonly deviceIds?: readonly string[];
  /**
   * A tag most of the wanted devices carry (the stack's owner tag), with how many are known to
   * carry it: the listing then searches only the devices with that tag — ⌈M/100⌉ requests for a
   * fleet of M however many other stacks' devices the application holds — and reads by id those it
   * does not return.
   */
  readonly carrying?: { readonly tag: string; readonly count: number };
}

function indexOf(devices: Iterable<PlatformDevice>): PlatformIndex {
  const bySn = new Map<string, PlatformDevice>();
  const byId = new Map<string, PlatformDevice>();
  for (const device of devices) {
    if (device.sn) bySn.set(device.sn.toUpperCase(), device);
    byId.set(device.deviceId, device);
  }
  return { bySn, byId };
}

/** Every device of the application, by the sorted paged search (see `application-listing.ts`). */
async function listApplication(
  client: DevicePlatformClient,
  concurrency: number,
  first?: DeviceSearchResult,
  tag?: string,
): Promise<PlatformIndex> {
  return indexOf(await listAllDevices(client, concurrency, first, tag));
}

/** The device `deviceId`, or undefined when the platform says it is not found (its own `device_not_found`). */
async function readById(client: DevicePlatformClient, deviceId: string): Promise<PlatformDevice | undefined> {
  try {
    return await client.getDevice(deviceId);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/**
 * Adds to `index` the wanted devices a listing did not return, each read by id: a listing is no
 * snapshot (another writer's delete shifts devices between pages), so only the platform's
 * not-found for that very device says it is gone.
 */
async function confirmMissing(
  client: DevicePlatformClient,
  index: PlatformIndex,
  deviceIds: readonly string[],
  concurrency: number,
): Promise<PlatformIndex> {
  const missing = deviceIds.filter((id) => !index.byId.has(id));
  if (missing.length === 0) return index;
  const devices: PlatformDevice[] = [...index.byId.values()];
  await forEachLimited(missing, concurrency, async (deviceId) => {
    const device = await readById(client, deviceId);
    if (device) devices.push(device);
  });
  return indexOf(devices);
}

async function oneByOne(
  client: DevicePlatformClient,
  wanted: Wanted,
  concurrency: number,
): Promise<PlatformIndex> {
  const devices: PlatformDevice[] = [];
  await forEachLimited(wanted.serials ?? [], concurrency, async (sn) => {
    const device = await client.findDeviceBySn(sn);
    if (device) devices.push(device);
  });
  await forEachLimited(wanted.deviceIds ?? [], concurrency, async (deviceId) => {
    const device = await readById(client, deviceId);
    if (device) devices.push(device);
  });
  return indexOf(devices);
}

/**
 * Finds the wanted devices, choosing between one request each and the paged search of the
 * application by which makes fewer requests. A wanted deviceId missing from the index is gone by
 * the platform's own word (`device_not_found` for that id). A wanted serial number missing from it
 * is only not found: an add of it meets the platform's `device_already_exists` if it is there.
 */
export async function findDevices(
  client: DevicePlatformClient,
  wanted: Wanted,
  concurrency: number,
): Promise<PlatformIndex> {
  const count = (wanted.serials?.length ?? 0) + (wanted.deviceIds?.length ?? 0);
  if (count === 0) return indexOf([]);
  if (count <= FEW) return oneByOne(client, wanted, concurrency);
  const tagged = await taggedFirstPage(client, wanted);
  const tag = tagged === undefined ? undefined : wanted.carrying?.tag;
  const first = tagged ?? (await searchPage(client, 1));
  const pages = Math.ceil(first.total / pageSizeOf(first));
  const found =
    pages - 1 > count
      ? await oneByOne(client, wanted, concurrency)
      : await confirmMissing(
          client,
          await listApplication(client, concurrency, first, tag),
          wanted.deviceIds ?? [],
          concurrency,
        );
  return tag === undefined ? { ...found, applicationSize: first.total } : found;
}

/**
 * Page 1 of the devices carrying the wanted tag, when the platform holds at least half as many as
 * are known to carry it; else undefined, and the whole application is listed (one request more):
 * after a stack is renamed, say, its devices carry the old tag, and reading each by id would cost a
 * request per device.
 */
async function taggedFirstPage(
  client: DevicePlatformClient,
  wanted: Wanted,
): Promise<DeviceSearchResult | undefined> {
  if (wanted.carrying === undefined || wanted.carrying.count === 0) return undefined;
  const page = await searchPage(client, 1, wanted.carrying.tag);
  return page.total * 2 >= wanted.carrying.count ? page : undefined;
}
