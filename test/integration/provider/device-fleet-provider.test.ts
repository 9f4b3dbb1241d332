/**
 * The DeviceFleet implementation against a real emulator, driven as the engine drives it (check,
 * then create or diff and update, read, delete): request counts of each step from the emulator's
 * counters, adoption without writes, partial failure and resume, refresh by search with
 * out-of-band changes, release, project changes in place and one device, one owner.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { deviceImplementation } from "../../../provider/device/provider";
import { deviceFleetImplementation as fleet } from "../../../provider/device-fleet/provider";
import { noteProgramRan, resetOwnership } from "../../../provider/guardrails/ownership";
import { PartialSuccessError } from "../../../provider/shared/errors";
import type { Inputs } from "../../../provider/shared/input-checks";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { useConfiguredEmulator } from "./support/configured-emulator";
import { writesOf } from "../../e2e/support/platform-writes";

const env = useConfiguredEmulator();
const OTHER_APPLICATION = "1650000000000000099";

interface Deployed {
  inputs: Inputs;
  outs: Inputs;
}

type Entry = { sn: string; name: string; description?: string; project?: string; tags?: string[] };

beforeEach(async () => {
  resetOwnership();
  await env.emulator.control.clearFaults();
});

/** One `up` of the fleet, as the engine runs it: check, then create or diff + update. */
async function up(
  name: string,
  devices: Entry[],
  previous?: Deployed,
  settings: Inputs = {},
): Promise<Deployed> {
  resetOwnership(); // each `up` is a deployment of its own
  const { inputs, failures } = await fleet.check(previous?.inputs ?? {}, {
    fleetName: name,
    devices,
    ...settings,
  });
  if (failures && failures.length > 0) throw new Error(failures.map((f) => f.reason).join("\n"));
  if (!previous) return { inputs, outs: (await fleet.create(inputs)).outs ?? {} };
  const diff = await fleet.diff(name, previous.outs, inputs);
  if (!diff.changes) return { inputs, outs: previous.outs };
  return { inputs, outs: (await fleet.update(name, previous.outs, inputs)).outs ?? {} };
}

async function counted<T>(
  step: () => Promise<T>,
): Promise<{ result: T; byRoute: Record<string, number>; total: number }> {
  await env.emulator.control.resetCounters();
  const result = await step();
  const { byRoute, total } = await env.emulator.control.counters();
  return { result, byRoute, total };
}

async function platformOf(serials: string[]) {
  const wanted = new Set(serials.map((s) => s.toUpperCase()));
  return (await env.emulator.control.state()).devices.filter((d) => wanted.has(d.sn.toUpperCase()));
}

function nth<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`no item ${index}`);
  return item;
}

function idOf(ids: Record<string, string>, sn: string): string {
  const id = ids[sn];
  if (id === undefined) throw new Error(`no deviceId for ${sn}`);
  return id;
}

function entries(count: number, prefix = "24"): Entry[] {
  return serialNumbers(count, prefix).map((sn, i) => ({ sn, name: `fleet-${i}`, tags: ["fleet"] }));
}

describe("a fleet of 250 devices", () => {
  it("is created with one add each and a few searches, then costs nothing when unchanged", async () => {
    const devices = entries(250);
    const created = await counted(() => up("site-a", devices));
    expect(created.byRoute["POST /devices"]).toBe(250);
    expect(writesOf(created.byRoute)).toEqual({ "POST /devices": 250 });
    const pages = Math.ceil((await env.emulator.control.state()).devices.length / 100);
    // One listing to look for devices to adopt, one to learn the models of those added.
    expect(created.byRoute["POST /devices/search"]).toBeLessThanOrEqual(2 * pages);

    const outs = created.result.outs;
    const deviceIds = outs.deviceIds as Record<string, string>;
    expect(Object.keys(deviceIds)).toHaveLength(250);
    const onPlatform = await platformOf(devices.map((d) => d.sn));
    expect(onPlatform.map((d) => deviceIds[d.sn])).toEqual(onPlatform.map((d) => d.deviceId));
    const info = (outs.devices as Record<string, Record<string, string>>)[nth(devices, 0).sn];
    expect(info).toEqual({
      deviceId: deviceIds[nth(devices, 0).sn],
      devEUI: expect.any(String),
      model: expect.any(String),
      deviceType: expect.any(String),
    });
    const bytes = JSON.stringify(created.result.inputs).length + JSON.stringify(outs).length;
    console.log(
      `fleet of 250: ${created.total} requests to create; ${Math.round(bytes / 250)} bytes of inputs and outputs per device`,
    );
    expect(bytes / 250).toBeLessThan(400);

    const again = await counted(() => up("site-a", devices, created.result));
    expect(again.total).toBe(0);
  });
});

describe("updates", () => {
  it("renames one device with exactly one PUT and no other write", async () => {
    const devices = entries(30);
    const first = await up("rename", devices);
    const renamed = devices.map((d, i) => (i === 7 ? { ...d, name: "renamed-7" } : d));
    const { byRoute } = await counted(() => up("rename", renamed, first));
    expect(writesOf(byRoute)).toEqual({ "PUT /devices": 1 });
    expect((await platformOf([nth(devices, 7).sn]))[0]?.name).toBe("renamed-7");
  });

  it("deletes removed devices, adds new ones, and retags a device moved to another project in place", async () => {
    const devices = entries(10);
    const first = await up("mixed", devices);
    const [added] = serialNumbers(1) as [string];
    const next = [
      ...devices.slice(3).map((d, i) => (i === 0 ? { ...d, project: "elsewhere" } : d)),
      { sn: added, name: "added" },
    ];
    const { byRoute, result } = await counted(() => up("mixed", next, first));
    const writes = { "DELETE /devices/{deviceId}": 3, "POST /devices": 1, "PUT /devices": 1 };
    expect(writesOf(byRoute)).toEqual(writes);
    expect(await platformOf(devices.slice(0, 3).map((d) => d.sn))).toEqual([]);
    const id = idOf(first.outs.deviceIds as Record<string, string>, nth(devices, 3).sn);
    expect(await platformOf([nth(devices, 3).sn])).toMatchObject([{ deviceId: id, project: "elsewhere" }]);
    expect(Object.keys(result.outs.deviceIds as object).sort()).toEqual(next.map((d) => d.sn).sort());
  });

  it("releases removed devices with onRemove: release, leaving them on the platform", async () => {
    const devices = entries(5);
    const first = await up("release", devices, undefined, { onRemove: "release" });
    const { byRoute, result } = await counted(() =>
      up("release", devices.slice(2), first, { onRemove: "release" }),
    );
    expect(writesOf(byRoute)).toEqual({});
    expect(await platformOf(devices.map((d) => d.sn))).toHaveLength(5);
    expect(Object.keys(result.outs.deviceIds as object)).toHaveLength(3);
  });

  it("does not delete a removed device that a Device resource of the same deployment declares", async () => {
    const devices = entries(4);
    const first = await up("handover", devices);
    resetOwnership();
    const moved = nth(devices, 0);
    // The engine checks the Device while the fleet's update runs: the fleet releases, the Device adopts.
    await deviceImplementation.check({}, { sn: moved.sn, name: moved.name, tags: moved.tags });
    const { inputs } = await fleet.check(first.inputs, { fleetName: "handover", devices: devices.slice(1) });
    const { byRoute } = await counted(async () => {
      await fleet.update("handover", first.outs, inputs);
      await deviceImplementation.create({ sn: moved.sn, name: moved.name, tags: moved.tags });
    });
    expect(writesOf(byRoute)).toEqual({});
    expect(await platformOf([moved.sn])).toHaveLength(1);
  });
});

describe("adoption", () => {
  it("adopts a fleet already on the platform without a single write", async () => {
    const devices = entries(120);
    for (const d of devices) await env.emulator.control.seedDevice({ sn: d.sn, name: d.name, tag: d.tags });
    const { byRoute, result } = await counted(() => up("adopted", devices));
    expect(writesOf(byRoute)).toEqual({});
    expect(Object.keys(result.outs.deviceIds as object)).toHaveLength(120);
  });
});

describe("partial failure", () => {
  it("records exactly what was done, lists what failed, and the next up does only what is left", async () => {
    const devices = entries(40);
    const blocked = devices.slice(0, 3);
    for (const d of blocked) {
      await env.emulator.control.seedDevice({
        sn: d.sn,
        name: "elsewhere",
        applicationId: OTHER_APPLICATION,
      });
    }
    const failure: unknown = await up("partial", devices).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(PartialSuccessError);
    const partial = failure as PartialSuccessError;
    expect(partial.id).toBe("partial");
    expect(partial.message).toMatch(/^create DeviceFleet partial failed for 3 of 40 device\(s\):/);
    expect(partial.message).toMatch(
      new RegExp(`add ${nth(blocked, 0).sn} failed: POST .* HTTP 409 device_in_other_application`),
    );
    expect(Object.keys(partial.properties.deviceIds as object)).toHaveLength(37);

    const state = await env.emulator.control.state();
    for (const d of blocked) {
      const other = state.devices.find((x) => x.sn === d.sn);
      if (other) await env.emulator.control.deleteDevice(other.deviceId);
    }
    // The engine records the partial outputs and updates from them at the next `up`.
    const { byRoute } = await counted(() =>
      fleet.update("partial", partial.properties, checkedInputs("partial", devices)),
    );
    expect(writesOf(byRoute)).toEqual({ "POST /devices": 3 });
    expect(await platformOf(devices.map((d) => d.sn))).toHaveLength(40);
  });
});

/** The checked inputs of a program (synchronous stand-in for check, which these inputs pass). */
function checkedInputs(name: string, devices: Entry[]): Inputs {
  const entriesBySn = Object.fromEntries(devices.map(({ sn, ...entry }) => [sn, entry]));
  return { fleetName: name, entries: entriesBySn };
}

describe("refresh", () => {
  it("reads the fleet by paged search and shows out-of-band drift in the inputs; the next up repairs it", async () => {
    const devices = entries(150);
    const first = await up("drift", devices);
    const ids = first.outs.deviceIds as Record<string, string>;
    const [renamed, retagged, deleted] = devices as [Entry, Entry, Entry];
    await env.emulator.control.changeDevice(idOf(ids, renamed.sn), { name: "renamed-out-of-band" });
    await env.emulator.control.changeDevice(idOf(ids, retagged.sn), { tag: ["other"] });
    await env.emulator.control.deleteDevice(idOf(ids, deleted.sn));

    const read = await counted(() => fleet.read("drift", first.outs));
    const pages = Math.ceil((await env.emulator.control.state()).devices.length / 100);
    expect(read.byRoute["POST /devices/search"]).toBe(pages);
    // Only the device the listing did not return is read by id: its own device_not_found drops it.
    expect(read.byRoute["GET /devices/{deviceId}"]).toBe(1);
    const refreshed = read.result.inputs as Inputs;
    const refreshedEntries = refreshed.entries as Record<string, Entry>;
    expect(refreshedEntries[renamed.sn]?.name).toBe("renamed-out-of-band");
    expect(refreshedEntries[retagged.sn]?.tags).toEqual(["other"]);
    expect(refreshedEntries[deleted.sn]).toBeUndefined();
    expect(Object.keys(refreshedEntries)).toHaveLength(149);

    const repaired = await counted(() =>
      up("drift", devices, { inputs: refreshed, outs: read.result.props }),
    );
    expect(writesOf(repaired.byRoute)).toEqual({ "PUT /devices": 2, "POST /devices": 1 });
    const after = await counted(() => fleet.read("drift", repaired.result.outs));
    expect(after.result.inputs).toEqual({ ...refreshed, entries: checkedInputs("drift", devices).entries });
  });
});

describe("delete", () => {
  it("deletes every device of the fleet, checking them with one listing, and counts gone ones as done", async () => {
    const devices = entries(12);
    const first = await up("doomed", devices);
    const ids = first.outs.deviceIds as Record<string, string>;
    await env.emulator.control.deleteDevice(idOf(ids, nth(devices, 0).sn));
    resetOwnership();
    const { byRoute } = await counted(() => fleet.delete("doomed", first.outs));
    expect(writesOf(byRoute)).toEqual({ "DELETE /devices/{deviceId}": 11 });
    // The one the listing did not return is read by id, and gone by its own device_not_found.
    expect(byRoute["GET /devices/{deviceId}"]).toBe(1);
    expect(await platformOf(devices.map((d) => d.sn))).toEqual([]);
  });
});

describe("maxRemovals guards the fleet's own removal", () => {
  it("refuses, in an up, to delete more devices than maxRemovals when the program drops the fleet", async () => {
    const devices = entries(4);
    const first = await up("guarded", devices, undefined, { maxRemovals: 3 });
    resetOwnership();
    noteProgramRan(); // an `up`: the engine checked the program's resources
    const { byRoute } = await counted(() =>
      fleet.delete("guarded", first.outs).catch((error: unknown) => {
        expect(String(error)).toBe("ResourceOperationError");
        expect((error as Error).message).toMatch(
          /^delete DeviceFleet guarded failed: the program no longer declares the fleet, and deleting it would delete its 4 devices, more than maxRemovals 3; nothing was deleted/,
        );
        return "refused";
      }),
    );
    expect(byRoute).toEqual({});
    expect(await platformOf(devices.map((d) => d.sn))).toHaveLength(4);

    const released = await up("guarded", devices, first, { maxRemovals: 3, onRemove: "release" });
    noteProgramRan();
    await fleet.delete("guarded", released.outs);
    expect(await platformOf(devices.map((d) => d.sn))).toHaveLength(4);
  });

  it("deletes the whole fleet in a destroy (no program ran), whatever maxRemovals says", async () => {
    const devices = entries(4);
    const first = await up("destroyed", devices, undefined, { maxRemovals: 1 });
    resetOwnership(); // `pulumi destroy`: no resource is checked
    await fleet.delete("destroyed", first.outs);
    expect(await platformOf(devices.map((d) => d.sn))).toEqual([]);
  });
});
