/**
 * Reads a live fleet through the SDK: the application's devices by paged search (⌈M/100⌉
 * requests), the RPS records by their listing, and with configuration each device's configuration
 * and TSL model, 16 devices at a time. Nothing is written anywhere until all of it has been read.
 * Both listings are sorted by a key that never changes (deviceId, serial number), so another
 * writer's adds do not shift what is read, and are paged by what the platform returns: a listing
 * ends when the records counted reach the platform's `total` or a page comes back empty, however
 * few records a page holds.
 */
import type { InventoryEntry, RpsEntry } from "../../inventory";
import { NotFoundError, type DeviceDetails, type DevicePlatformClient } from "../../sdk";
import type { Progress } from "../progress";
import { DEFAULT_OWNER_TAG, markersIn, userTags } from "../../provider/shared/owner-marker";

const BY_DEVICE_ID = [{ property: "deviceId", direction: "asc" as const }];
const BY_SN = [{ property: "sn", direction: "asc" as const }];
import { mapConcurrent } from "./map-concurrent";
import { writableConfiguration, writeOnlyProperties, type DeviceConfiguration } from "./config-groups";

/** Which devices to export; an empty list does not filter. */
export interface FleetFilter {
  /** The device's project must be one of these. */
  readonly projects: readonly string[];
  /** The device must have at least one of these tags. */
  readonly tags: readonly string[];
}

/** A device as it will be exported. */
export interface ExportedDevice {
  readonly entry: InventoryEntry;
  readonly deviceId: string;
  readonly model: string | undefined;
  /**
   * The stack whose owner tag the device carries (`<project>/<stack>@<instance>`, or a whole tag of
   * another prefix): the tag itself is never among the entry's tags, since a program cannot declare it.
   */
  readonly owner?: string;
}

/** The stack an owner marker names, exactly: the tag without the default prefix. */
function stackOfMarker(tag: string): string {
  return tag.startsWith(DEFAULT_OWNER_TAG) ? tag.slice(DEFAULT_OWNER_TAG.length) : tag;
}

/** What {@link readFleet} found. */
export interface FleetSnapshot {
  /** Devices the application has, before filtering. */
  readonly listed: number;
  /** The devices to export, in the platform's listing order. */
  readonly devices: readonly ExportedDevice[];
  readonly rps: readonly RpsEntry[] | undefined;
  readonly configurations: readonly DeviceConfiguration[] | undefined;
  /** Things the user should know that did not stop the export. */
  readonly warnings: readonly string[];
}

/** What to read, and how. */
export interface ReadOptions {
  readonly filter: FleetFilter;
  readonly includeRps: boolean;
  readonly includeConfig: boolean;
  /** Devices whose configuration is read at once (default 16). */
  readonly concurrency?: number;
  readonly progress: Progress;
}

/** A read that failed, with what was being read (for the message). */
export class FleetReadError extends Error {
  constructor(
    readonly phase: string,
    override readonly cause: unknown,
  ) {
    super(`${phase}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = "FleetReadError";
  }
}

function ownerOf(tags: readonly string[] | undefined): { owner?: string } {
  const [marker] = markersIn(tags);
  return marker === undefined ? {} : { owner: stackOfMarker(marker) };
}

/** Whether a device passes the filter: project among `projects` and a tag among `tags`. */
export function matchesFilter(device: Pick<DeviceDetails, "project" | "tag">, filter: FleetFilter): boolean {
  const projectOk =
    filter.projects.length === 0 ||
    (device.project !== undefined && filter.projects.includes(device.project));
  const tagOk = filter.tags.length === 0 || (device.tag ?? []).some((tag) => filter.tags.includes(tag));
  return projectOk && tagOk;
}

/** The inventory line of a device; empty strings are absent values, as in the file. */
function entryOf(device: DeviceDetails & { sn: string }, warnings: string[]): InventoryEntry {
  const name = device.name?.trim() ? device.name : device.sn;
  if (name !== device.name) warnings.push(`device ${device.sn} has no name; its serial number is used`);
  const entry: InventoryEntry = { sn: device.sn, name };
  if (device.project) entry.project = device.project;
  if (device.description) entry.description = device.description;
  const tags = userTags(device.tag ?? []);
  if (tags.length > 0) entry.tags = tags;
  return entry;
}

async function readDevices(client: DevicePlatformClient, options: ReadOptions, warnings: string[]) {
  const phase = options.progress.phase("reading devices");
  const devices: ExportedDevice[] = [];
  const seen = new Set<string>();
  let listed = 0;
  try {
    for await (const device of client.listDevices({ sorts: BY_DEVICE_ID })) {
      listed += 1;
      phase.increment();
      if (!device.sn) {
        warnings.push(
          `device ${device.deviceId} has no serial number and cannot be declared; it is left out`,
        );
        continue;
      }
      // The listing is not a snapshot: a device added meanwhile can shift one onto the next page.
      if (seen.has(device.sn.toUpperCase())) continue;
      seen.add(device.sn.toUpperCase());
      if (!matchesFilter(device, options.filter)) continue;
      devices.push({
        entry: entryOf({ ...device, sn: device.sn }, warnings),
        deviceId: device.deviceId,
        model: device.model,
        ...ownerOf(device.tag),
      });
    }
  } catch (error) {
    phase.finish(true);
    throw new FleetReadError("reading devices", error);
  }
  phase.finish();
  return { listed, devices };
}

async function readRps(client: DevicePlatformClient, options: ReadOptions): Promise<RpsEntry[]> {
  const phase = options.progress.phase("reading RPS records");
  try {
    const records: RpsEntry[] = [];
    for await (const { sn, profileUrl } of client.listRpsProfiles(BY_SN)) {
      records.push({ sn, profileUrl });
      phase.increment();
    }
    phase.finish();
    return records;
  } catch (error) {
    phase.finish(true);
    throw new FleetReadError("reading RPS records", error);
  }
}

async function readConfigurations(
  client: DevicePlatformClient,
  devices: readonly ExportedDevice[],
  options: ReadOptions,
  warnings: string[],
): Promise<DeviceConfiguration[]> {
  const phase = options.progress.phase("reading configurations", devices.length);
  const writeOnly = new Set<string>();
  try {
    const read = await mapConcurrent(
      devices,
      options.concurrency ?? 16,
      async ({ entry, deviceId, model }) => {
        try {
          const [config, tsl] = await Promise.all([
            client.getDeviceConfig(deviceId),
            client.getThingModel(deviceId),
          ]);
          const properties = writableConfiguration(tsl, config.properties);
          for (const id of writeOnlyProperties(tsl, config.properties)) writeOnly.add(id);
          return { sn: entry.sn, model, properties };
        } catch (error) {
          if (error instanceof NotFoundError && error.errCode === "device_not_found") {
            warnings.push(
              `device ${entry.sn} disappeared while its configuration was read; it has none in config.json`,
            );
            return undefined;
          }
          throw new FleetReadError(
            `reading the configuration of device ${entry.sn} (deviceId ${deviceId})`,
            error,
          );
        } finally {
          phase.increment();
        }
      },
    );
    if (writeOnly.size > 0) {
      warnings.push(
        `write-only properties were left out of config.json (${[...writeOnly].sort().join(", ")}): they may be ` +
          "device secrets such as keys or tokens; declare them in the program, from Pulumi secrets, to manage them",
      );
    }
    phase.finish();
    return read.filter((c): c is DeviceConfiguration => c !== undefined);
  } catch (error) {
    phase.finish(true);
    throw error;
  }
}

/** Reads what the options ask for. Throws {@link FleetReadError} naming what was being read. */
export async function readFleet(client: DevicePlatformClient, options: ReadOptions): Promise<FleetSnapshot> {
  const warnings: string[] = [];
  const { listed, devices } = await readDevices(client, options, warnings);
  const rps = options.includeRps ? await readRps(client, options) : undefined;
  const configurations = options.includeConfig
    ? await readConfigurations(client, devices, options, warnings)
    : undefined;
  return { listed, devices, rps, configurations, warnings };
}
