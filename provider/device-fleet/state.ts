/**
 * The state (outputs) of a DeviceFleet: for each managed device, its id, what the platform reports
 * that never changes on its own, and what this fleet last applied or read — nothing that changes by
 * itself (connectStatus, electricity, lastUpdateTime), so that a refresh of an unchanged fleet
 * changes nothing, and few bytes per device (a self-managed backend rewrites the whole state at
 * every step).
 *
 * Outputs, keyed by serial number as declared:
 * - `deviceIds`: sn → deviceId (what a DeviceConfig takes);
 * - `devices`: sn → { deviceId, devEUI?, imei?, model?, deviceType? };
 * - `applied`: sn → the entry as it is on the platform (the engine gives a dynamic provider's `diff`
 *   and `update` the old outputs, not the old inputs, so the plan is made against this), held as
 *   one JSON string: it is the provider's own bookkeeping, and the engine's cost of a step grows
 *   with the number of property values it marshals (and logs) — 10,000 entries as nested values
 *   cost seconds on every preview, as one string nothing;
 * - `ownerMarker`: the owner tag (provider/shared/owner-marker.ts) this fleet writes on its devices,
 *   and `unmarked`, the serial numbers not known to carry it yet (absent when every device does);
 *   a fleet recorded without `ownerMarker` (managed before owner tags) gives every device the tag;
 *   `formerMarkers`, while some devices are not known to carry `ownerMarker`, the markers this fleet
 *   wrote before (the same stack before a rename, a project rename or a prefix change): a device
 *   carrying one of them is still this fleet's;
 * plus `fleetName` and the settings.
 */
import type { Device as PlatformDevice } from "../../sdk";
import { platformDeclaration, type DeclaredDevice } from "../device/desired";
import { definedInputs, type Inputs } from "../shared/input-checks";
import { bySerial } from "../shared/serial-numbers";
import { isPlainObject } from "../../sdk/plain-object";
import { SETTING_INPUTS, type FleetEntries, type FleetEntry } from "./inputs";

/** What a fleet's `devices` output holds per device. */
export interface FleetDeviceInfo {
  readonly deviceId: string;
  readonly devEUI?: string;
  readonly imei?: string;
  readonly model?: string;
  readonly deviceType?: string;
}

/** The stable facts of a platform device for the `devices` output. */
export function infoOf(device: PlatformDevice): FleetDeviceInfo {
  return definedInputs({
    deviceId: device.deviceId,
    devEUI: device.devEUI,
    imei: device.imei,
    model: device.model,
    deviceType: device.deviceType,
  }) as unknown as FleetDeviceInfo;
}

/** An entry as it is on the platform (its TSL version as last applied: the platform does not report it). */
export function entryFromPlatform(device: PlatformDevice, sn: string, previous?: FleetEntry): FleetEntry {
  const declared: Partial<DeclaredDevice> = platformDeclaration(device, { ...previous, sn });
  delete declared.sn;
  return declared as FleetEntry;
}

function recordOf<T>(value: unknown): Record<string, T> {
  return isPlainObject(value) ? (value as Record<string, T>) : {};
}

/** The `applied` output: a JSON string of entries (or, as a fleet first recorded it, the record itself). */
function appliedOf(value: unknown): Record<string, FleetEntry> {
  if (typeof value !== "string") return recordOf<FleetEntry>(value);
  const parsed: unknown = JSON.parse(value);
  return recordOf<FleetEntry>(parsed);
}

/**
 * The devices a fleet manages, as a mutable record while an operation runs. Serial numbers are
 * matched without regard to case; each is kept in the spelling the fleet last declared.
 */
export class FleetLedger {
  private readonly ids = new Map<string, string>();
  private readonly infos = new Map<string, FleetDeviceInfo>();
  private readonly appliedEntries = new Map<string, FleetEntry>();
  private readonly spelling = new Map<string, string>();
  /** The owner marker the fleet's devices carry, but those in {@link unmarked}. */
  private marker: string | undefined;
  /** Markers this fleet wrote before {@link marker}, which devices in {@link unmarked} may still carry. */
  private former: string[] = [];
  private readonly unmarked = new Set<string>();

  /** The ledger of a state's outputs (empty for a new fleet). */
  static fromOutputs(outputs: Inputs): FleetLedger {
    const ledger = new FleetLedger();
    const applied = appliedOf(outputs.applied);
    const infos = recordOf<FleetDeviceInfo>(outputs.devices);
    for (const [sn, deviceId] of Object.entries(recordOf<string>(outputs.deviceIds))) {
      ledger.record(sn, deviceId, applied[sn] ?? { name: "" }, infos[sn] ?? { deviceId });
    }
    if (typeof outputs.ownerMarker === "string") {
      ledger.marker = outputs.ownerMarker;
      const former = Array.isArray(outputs.formerMarkers) ? outputs.formerMarkers : [];
      ledger.former = former.filter((tag): tag is string => typeof tag === "string");
      const unmarked = Array.isArray(outputs.unmarked) ? outputs.unmarked : [];
      ledger.unmarked.clear();
      for (const sn of unmarked) if (typeof sn === "string") ledger.unmarked.add(sn.toUpperCase());
    }
    return ledger;
  }

  /** Whether the device `sn` is not known to carry `marker` (undefined: none is written). */
  needsMarker(sn: string, marker: string | undefined): boolean {
    if (marker === undefined) return false;
    return this.marker !== marker || this.unmarked.has(sn.toUpperCase());
  }

  /**
   * Starts a run that writes `marker`: when the fleet recorded another marker (or none), none of
   * its devices is known to carry this one yet.
   */
  useMarker(marker: string | undefined): void {
    if (marker === undefined || this.marker === marker) return;
    if (this.marker !== undefined) this.former = [...new Set([...this.former, this.marker])];
    this.former = this.former.filter((tag) => tag !== marker);
    this.marker = marker;
    this.unmarked.clear();
    for (const key of this.ids.keys()) this.unmarked.add(key);
  }

  /**
   * The markers this fleet wrote: the current one and those before it (a rename, a prefix change):
   * a device carrying any of them is this fleet's.
   */
  ownMarkers(): string[] {
    return this.marker === undefined ? [...this.former] : [this.marker, ...this.former];
  }

  /** Records that the device `sn` now carries the fleet's marker. */
  setMarked(sn: string): void {
    this.unmarked.delete(sn.toUpperCase());
  }

  /**
   * The owner tag to search the fleet's devices by, and how many are known to carry it: undefined
   * when none is recorded, or when more devices are not known to carry it than a listing of the
   * fleet has pages (each of those is read by id after the search).
   */
  carrying(): { tag: string; count: number } | undefined {
    if (this.marker === undefined) return undefined;
    const count = this.ids.size - this.unmarked.size;
    return this.unmarked.size > Math.ceil(this.ids.size / 100) ? undefined : { tag: this.marker, count };
  }

  /** The serial numbers managed, as spelled in state, in serial order. */
  serials(): string[] {
    return [...this.spelling.values()].sort(bySerial);
  }

  /** Upper-case key → spelling, in serial order of the spellings (see bySerial). */
  private ordered(): [string, string][] {
    return [...this.spelling].sort(([, a], [, b]) => bySerial(a, b));
  }

  /** How many devices the fleet manages. */
  get size(): number {
    return this.ids.size;
  }

  /** The state's spelling of `sn`, when the fleet manages that device. */
  spellingOf(sn: string): string | undefined {
    return this.spelling.get(sn.toUpperCase());
  }

  deviceIdOf(sn: string): string | undefined {
    return this.ids.get(sn.toUpperCase());
  }

  appliedOf(sn: string): FleetEntry | undefined {
    return this.appliedEntries.get(sn.toUpperCase());
  }

  infoOf(sn: string): FleetDeviceInfo | undefined {
    return this.infos.get(sn.toUpperCase());
  }

  /** Records a managed device: its id, what is applied, and what the platform reports. */
  record(sn: string, deviceId: string, applied: FleetEntry, info?: FleetDeviceInfo): void {
    const key = sn.toUpperCase();
    this.spelling.set(key, sn);
    this.ids.set(key, deviceId);
    this.appliedEntries.set(key, applied);
    this.infos.set(key, { ...(this.infos.get(key) ?? {}), ...info, deviceId });
    // Not known to carry the marker until a write says so (setMarked).
    if (this.marker !== undefined) this.unmarked.add(key);
  }

  /** Records what is now applied to a device the fleet manages. */
  setApplied(sn: string, applied: FleetEntry): void {
    this.appliedEntries.set(sn.toUpperCase(), applied);
  }

  /** Adds what the platform reports (model, deviceType, …) to a managed device's info. */
  setInfo(sn: string, info: FleetDeviceInfo): void {
    const key = sn.toUpperCase();
    if (this.ids.has(key)) this.infos.set(key, { ...this.infos.get(key), ...info });
  }

  /** Stops managing a device (deleted, released, or gone). */
  forget(sn: string): void {
    const key = sn.toUpperCase();
    this.spelling.delete(key);
    this.ids.delete(key);
    this.infos.delete(key);
    this.appliedEntries.delete(key);
    this.unmarked.delete(key);
  }

  /** What is applied, as entries keyed by serial number (what a refresh reports as the inputs). */
  appliedEntriesRecord(): FleetEntries {
    const entries: FleetEntries = {};
    for (const [key, sn] of this.ordered()) entries[sn] = this.appliedEntries.get(key) ?? { name: "" };
    return entries;
  }

  /** The outputs: fleetName, settings, deviceIds, devices and applied. */
  toOutputs(fleetName: string, settings: Inputs): Inputs {
    const deviceIds: Record<string, string> = {};
    const devices: Record<string, FleetDeviceInfo> = {};
    for (const [key, sn] of this.ordered()) {
      deviceIds[sn] = this.ids.get(key) as string;
      devices[sn] = this.infos.get(key) ?? { deviceId: deviceIds[sn] };
    }
    const kept = Object.fromEntries(SETTING_INPUTS.map((name) => [name, settings[name]]));
    const applied = JSON.stringify(this.appliedEntriesRecord());
    const unmarked = [...this.unmarked].map((key) => this.spelling.get(key) as string).sort(bySerial);
    return definedInputs({
      fleetName,
      ...kept,
      deviceIds,
      devices,
      applied,
      ownerMarker: this.marker,
      unmarked: this.marker !== undefined && unmarked.length > 0 ? unmarked : undefined,
      formerMarkers:
        this.marker !== undefined && unmarked.length > 0 && this.former.length > 0 ? this.former : undefined,
    });
  }
}
