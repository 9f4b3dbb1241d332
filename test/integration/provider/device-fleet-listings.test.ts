/**
 * Forget only on evidence, for DeviceFleet: against a platform that pages at 7 records whatever is
 * asked, and with another writer changing the application between two pages of a listing (the
 * emulator's interleave control, so the interleaving is exact), a fleet's refresh, removal and
 * delete keep or delete every device they manage — a device a listing missed is read by id, and
 * only its own device_not_found drops it. Request counts are exact.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { deviceFleetImplementation as fleet } from "../../../provider/device-fleet/provider";
import { resetOwnership } from "../../../provider/guardrails/ownership";
import type { Inputs } from "../../../provider/shared/input-checks";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { writesOf } from "../../e2e/support/platform-writes";
import { useConfiguredEmulator } from "./support/configured-emulator";

const PAGE = 7;
const env = useConfiguredEmulator({ maxPageSize: PAGE });

type Entry = { sn: string; name: string };

function entries(count: number, prefix = "24"): Entry[] {
  return serialNumbers(count, prefix).map((sn, i) => ({ sn, name: `fleet-${i}` }));
}

async function create(name: string, devices: Entry[]): Promise<Inputs> {
  resetOwnership();
  const { inputs } = await fleet.check({}, { fleetName: name, devices });
  return (await fleet.create(inputs)).outs ?? {};
}

async function counted<T>(step: () => Promise<T>): Promise<{ result: T; byRoute: Record<string, number> }> {
  await env.emulator.control.resetCounters();
  const result = await step();
  return { result, byRoute: (await env.emulator.control.counters()).byRoute };
}

/** The other writer's devices, added first: they hold the application's first deviceIds. */
async function otherWriter(count: number): Promise<string[]> {
  const seeded = await env.emulator.control.seed({
    devices: serialNumbers(count, "66").map((sn, i) => ({ sn, name: `other-${i}` })),
  });
  return seeded.devices.map((d) => d.deviceId);
}

function managed(outs: Inputs): string[] {
  return Object.keys(outs.deviceIds as Record<string, string>).sort();
}

async function onPlatform(serials: readonly string[]): Promise<string[]> {
  const wanted = new Set(serials);
  return (await env.emulator.control.state()).devices
    .filter((d) => wanted.has(d.sn))
    .map((d) => d.sn)
    .sort();
}

beforeEach(async () => {
  // A fresh application per test, so page counts are exact; the provider's token stays valid.
  await env.emulator.control.reset({ keepTokens: true });
});

describe("a platform that pages at 7 records, whatever is asked", () => {
  it("refreshes a fleet of 20: ⌈20/7⌉ searches, no GET, every device kept", async () => {
    const devices = entries(20);
    const outs = await create("paged", devices);
    expect(managed(outs)).toEqual(devices.map((d) => d.sn).sort());
    const read = await counted(() => fleet.read("paged", outs));
    expect(read.byRoute).toEqual({ "POST /devices/search": 3 });
    expect(managed(read.result.props)).toEqual(managed(outs));
    expect(read.result.props).toEqual(outs);
  });

  it("deletes every removed device, none of them mistaken for gone", async () => {
    const devices = entries(20);
    let outs = await create("paged-removal", devices);
    resetOwnership();
    const kept = devices.slice(0, 8);
    // 12 of 20 is more than the default allows at once (half): the program says it means it.
    const { inputs } = await fleet.check(outs, {
      fleetName: "paged-removal",
      devices: kept,
      maxRemovals: 12,
    });
    const removal = await counted(() => fleet.update("paged-removal", outs, inputs));
    outs = removal.result.outs ?? {};
    expect(writesOf(removal.byRoute)).toEqual({ "DELETE /devices/{deviceId}": 12 });
    expect(removal.byRoute["POST /devices/search"]).toBe(3);
    expect(removal.byRoute["GET /devices/{deviceId}"]).toBeUndefined();
    expect(await onPlatform(devices.map((d) => d.sn))).toEqual(kept.map((d) => d.sn).sort());
    expect(managed(outs)).toEqual(kept.map((d) => d.sn).sort());
  });
});

describe("another writer changes the application between two pages of a listing", () => {
  /**
   * 10 devices of another writer (lowest ids), then the fleet's 20. Right before the second search
   * page is served, the other writer deletes 5 of its devices and adds 3: the fleet's first two
   * devices shift onto page 1, already read, and no page returns them.
   */
  async function interleaveBeforePage2(others: string[]): Promise<void> {
    await env.emulator.control.interleave({
      route: "POST /devices/search",
      before: 2,
      deleteDevices: others.slice(0, 5),
      addDevices: serialNumbers(3, "66").map((sn, i) => ({ sn, name: `added-${i}` })),
    });
  }

  it("a refresh reads the 2 devices the listing missed by id and keeps all 20", async () => {
    const others = await otherWriter(10);
    const devices = entries(20);
    const outs = await create("interleaved", devices);
    await interleaveBeforePage2(others);
    const read = await counted(() => fleet.read("interleaved", outs));
    // Page 1 says 30 at 7 a page: pages 2–5 follow, page 5 (of 28 records now) is empty.
    expect(read.byRoute).toEqual({ "POST /devices/search": 5, "GET /devices/{deviceId}": 2 });
    expect((await env.emulator.control.interleavings()).done).toHaveLength(1);
    expect(managed(read.result.props)).toEqual(devices.map((d) => d.sn).sort());
    expect(read.result.props).toEqual(outs);
  });

  it("a removal deletes the devices the listing missed instead of forgetting them on the platform", async () => {
    const others = await otherWriter(10);
    const devices = entries(20);
    const outs = await create("interleaved-removal", devices);
    resetOwnership();
    const kept = devices.slice(10);
    const { inputs } = await fleet.check(outs, { fleetName: "interleaved-removal", devices: kept });
    await interleaveBeforePage2(others);
    const removal = await counted(() => fleet.update("interleaved-removal", outs, inputs));
    expect(writesOf(removal.byRoute)).toEqual({ "DELETE /devices/{deviceId}": 10 });
    expect(removal.byRoute["POST /devices/search"]).toBe(5);
    // The 2 missed devices are each read by id or deleted by the id state holds (whose answer names
    // the serial number): which, depends on when the paced deletes start against the listing.
    expect(removal.byRoute["GET /devices/{deviceId}"]).toBeGreaterThanOrEqual(1);
    expect(removal.byRoute["GET /devices/{deviceId}"]).toBeLessThanOrEqual(2);
    expect(await onPlatform(devices.map((d) => d.sn))).toEqual(kept.map((d) => d.sn).sort());
    expect(managed(removal.result.outs ?? {})).toEqual(kept.map((d) => d.sn).sort());
  });

  it("a delete of the fleet deletes every device, the missed ones too", async () => {
    const others = await otherWriter(10);
    const devices = entries(20);
    const outs = await create("interleaved-delete", devices);
    resetOwnership();
    await interleaveBeforePage2(others);
    const deleted = await counted(() => fleet.delete("interleaved-delete", outs));
    expect(writesOf(deleted.byRoute)).toEqual({ "DELETE /devices/{deviceId}": 20 });
    expect(deleted.byRoute["GET /devices/{deviceId}"]).toBe(2);
    expect(await onPlatform(devices.map((d) => d.sn))).toEqual([]);
    // The other writer's devices are untouched: 5 of its 10 left, and its 3 added.
    const rest = (await env.emulator.control.state()).devices.map((d) => d.name).sort();
    expect(rest).toEqual(
      [...others.slice(5).map((_, i) => `other-${i + 5}`), "added-0", "added-1", "added-2"].sort(),
    );
  });
});
