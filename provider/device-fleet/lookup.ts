/**
 * Finding many devices of the application with as few requests as possible: one request per
 * device when there are few of them, the paged search of the whole application (⌈M/100⌉ requests
 * for M devices) when that is fewer requests. A fleet of 10,000 is refreshed, planned and verified
 * with 100 searches, never 10,000 GETs.
 */
import {
  NotFoundError,
  type DevicePlatformClient,
  type Device as PlatformDevice,
  type DeviceDetails,
} from "../../sdk";
import { forEachLimited } from "../shared/fanout";

/** Records per search page: the platform's maximum. */
const PAGE_SIZE = 100;
/** Up to this many devices are looked up one by one without first asking how big the application is. */
const FEW = 5;

/** Devices found, by upper-case serial number and by deviceId. */
export interface PlatformIndex {
  readonly bySn: ReadonlyMap<string, PlatformDevice>;
  readonly byId: ReadonlyMap<string, PlatformDevice>;
}

/** What to look for. */
export interface Wanted {
  readonly serials?: readonly string[];
  readonly deviceIds?: readonly string[];
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

/** Every device of the application: page 1, then the other pages `concurrency` at a time. */
export async function listApplication(
  client: DevicePlatformClient,
  concurrency: number,
  first?: { total: number; content: DeviceDetails[] },
): Promise<PlatformIndex> {
  const page1 = first ?? (await client.searchDevices({ pageNumber: 1, pageSize: PAGE_SIZE }));
  const pages = Math.ceil(page1.total / PAGE_SIZE);
  const rest = Array.from({ length: Math.max(0, pages - 1) }, (_, i) => i + 2);
  const found: DeviceDetails[][] = [page1.content];
  await forEachLimited(rest, concurrency, async (pageNumber) => {
    found.push((await client.searchDevices({ pageNumber, pageSize: PAGE_SIZE })).content);
  });
  return indexOf(found.flat());
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
    try {
      devices.push(await client.getDevice(deviceId));
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  });
  return indexOf(devices);
}

/**
 * Finds the wanted devices (absent ones are simply not in the index), choosing between one request
 * each and the paged search of the application by which makes fewer requests.
 */
export async function findDevices(
  client: DevicePlatformClient,
  wanted: Wanted,
  concurrency: number,
): Promise<PlatformIndex> {
  const count = (wanted.serials?.length ?? 0) + (wanted.deviceIds?.length ?? 0);
  if (count === 0) return indexOf([]);
  if (count <= FEW) return oneByOne(client, wanted, concurrency);
  const first = await client.searchDevices({ pageNumber: 1, pageSize: PAGE_SIZE });
  const pages = Math.ceil(first.total / PAGE_SIZE);
  return pages - 1 <= count
    ? listApplication(client, concurrency, first)
    : oneByOne(client, wanted, concurrency);
}
