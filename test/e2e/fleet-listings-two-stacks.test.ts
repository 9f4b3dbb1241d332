/**
 * Forget only on evidence, on the real CLI, against an emulator that pages at 7 records whatever is
 * asked: a DeviceFleet refreshes, removes and destroys exactly; and two stacks, each with a
 * DeviceFleet, writing to one application at the same time (what examples/fleet-repo does for
 * large fleets) lose nothing and leave no state lie. Where another writer's change must fall
 * between two pages of a listing, the emulator's interleave control puts it there exactly. A fleet's
 * refresh searches the devices carrying its stack's owner tag only, so another stack's devices, and
 * another writer's deletes of them, neither cost it pages nor shift them (the whole application's
 * listing, and the devices a shifted page misses, are proven in
 * test/integration/provider/device-fleet-listings.test.ts).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { deviceFleetProgram, serialNumbers, type FleetDeviceSpec } from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import { assertOk, resourcesOfType, type PulumiProject } from "./support/pulumi-project";
import { writesOf } from "./support/platform-writes";

const FLEET = "pulumi-nodejs:dynamic/devplatform:DeviceFleet";
const PAGE = 7;
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ control: true, maxPageSize: PAGE });
});
afterAll(async () => {
  await emulator.stop();
});

function fleetDevices(count: number, prefix: string): FleetDeviceSpec[] {
  return serialNumbers(count, prefix).map((sn, i) => ({ sn, name: `${prefix}-${i}`, tags: ["two-stacks"] }));
}

async function fleetProject(name: string, fleet: string, devices: FleetDeviceSpec[]): Promise<PulumiProject> {
  const project = await createProject({
    name,
    program: deviceFleetProgram(fleet),
    files: { "fleet.json": JSON.stringify(devices) },
    config: { "devplatform:baseUrl": emulator.url },
  });
  return project;
}

function writeFleet(project: PulumiProject, devices: FleetDeviceSpec[]): void {
  writeFileSync(path.join(project.dir, "fleet.json"), JSON.stringify(devices));
}

async function stateIds(project: PulumiProject): Promise<Record<string, string>> {
  const [fleet] = resourcesOfType(await project.exportStack(), FLEET);
  return (fleet?.outputs?.deviceIds ?? {}) as Record<string, string>;
}

/** The platform's ids of these devices, by serial number. */
async function platformIds(devices: FleetDeviceSpec[]): Promise<Record<string, string>> {
  const wanted = new Set(devices.map((d) => d.sn));
  const found = (await emulator.control.state()).devices.filter((d) => wanted.has(d.sn));
  return Object.fromEntries(found.map((d) => [d.sn, d.deviceId]));
}

describe("a DeviceFleet of 30 against a platform paging at 7", () => {
  let project: PulumiProject;
  let devices: FleetDeviceSpec[];

  it("creates, refreshes with ⌈30/7⌉ searches, removes 10 with 10 DELETEs and destroys, state = platform", async () => {
    await emulator.control.reset();
    devices = fleetDevices(30, "24");
    project = await fleetProject("paged-fleet", "paged", devices);
    assertOk(await project.up());
    expect(await stateIds(project)).toEqual(await platformIds(devices));

    await emulator.control.resetCounters();
    assertOk(await project.refreshExpectingNoChanges());
    const refresh = (await emulator.control.counters()).byRoute;
    expect(refresh["POST /devices/search"]).toBe(5);
    expect(refresh["GET /devices/{deviceId}"]).toBeUndefined();
    expect(Object.keys(await stateIds(project))).toHaveLength(30);

    const kept = devices.slice(10);
    writeFleet(project, kept);
    await emulator.control.resetCounters();
    assertOk(await project.up());
    const removal = (await emulator.control.counters()).byRoute;
    expect(writesOf(removal)).toEqual({ "DELETE /devices/{deviceId}": 10 });
    expect(await platformIds(devices)).toEqual(await platformIds(kept));
    expect(await stateIds(project)).toEqual(await platformIds(kept));
    assertOk(await project.refreshExpectingNoChanges());
    assertOk(await project.preview({ expectNoChanges: true }));

    await emulator.control.resetCounters();
    assertOk(await project.destroy());
    expect(writesOf((await emulator.control.counters()).byRoute)).toEqual({
      "DELETE /devices/{deviceId}": 20,
    });
    expect(await platformIds(devices)).toEqual({});
  });
});

describe("two stacks, each with a DeviceFleet, writing to one application at the same time", () => {
  let a: PulumiProject;
  let b: PulumiProject;
  let devicesA: FleetDeviceSpec[];
  let devicesB: FleetDeviceSpec[];
  let others: string[];

  beforeAll(async () => {
    await emulator.control.reset();
    // A third writer's devices, added before both stacks: the application's lowest deviceIds.
    const seeded = await emulator.control.seed({
      devices: serialNumbers(10, "66").map((sn, i) => ({ sn, name: `other-${i}` })),
    });
    others = seeded.devices.map((d) => d.deviceId);
    devicesA = fleetDevices(25, "24");
    devicesB = fleetDevices(25, "5B");
    [a, b] = await Promise.all([
      fleetProject("stack-a", "site-a", devicesA),
      fleetProject("stack-b", "site-b", devicesB),
    ]);
  });

  it("both `up` at once: every device of both fleets is on the platform once, and each state = platform", async () => {
    const [upA, upB] = await Promise.all([a.up(), b.up()]);
    assertOk(upA);
    assertOk(upB);
    const onPlatform = await platformIds([...devicesA, ...devicesB]);
    expect(Object.keys(onPlatform)).toHaveLength(50);
    expect((await emulator.control.state()).devices).toHaveLength(60);
    expect(await stateIds(a)).toEqual(await platformIds(devicesA));
    expect(await stateIds(b)).toEqual(await platformIds(devicesB));
    const [previewA, previewB] = await Promise.all([
      a.preview({ expectNoChanges: true }),
      b.preview({ expectNoChanges: true }),
    ]);
    assertOk(previewA);
    assertOk(previewB);
  });

  it("each stack's refresh searches its own devices only, and keeps them while another writer deletes and adds between its pages", async () => {
    for (const [project, devices, deleted] of [
      [a, devicesA, others.slice(0, 5)],
      [b, devicesB, others.slice(5)],
    ] as const) {
      await emulator.control.interleave({
        route: "POST /devices/search",
        before: 2,
        deleteDevices: [...deleted],
        addDevices: serialNumbers(3, "AC").map((sn, i) => ({ sn, name: `added-${i}` })),
      });
      const before = await stateIds(project);
      await emulator.control.resetCounters();
      assertOk(await project.refreshExpectingNoChanges());
      const { byRoute } = await emulator.control.counters();
      // The listing searches only the devices carrying this stack's owner tag: ⌈25/7⌉ pages, however
      // many devices the application holds, and another writer's deletes cannot shift them.
      expect(byRoute["POST /devices/search"]).toBe(Math.ceil(devices.length / PAGE));
      expect(byRoute["GET /devices/{deviceId}"] ?? 0).toBe(0);
      expect(await stateIds(project)).toEqual(before);
      console.log(
        `refresh of ${devices.length} with 5 deleted and 3 added between its pages: ${JSON.stringify(byRoute)}`,
      );
    }
  });

  it("an `up` adding 14 devices lists the whole application once to adopt, then only its own devices for their models", async () => {
    const grown = [...devicesB, ...fleetDevices(14, "5C")];
    writeFleet(b, grown);
    const size = (await emulator.control.state()).devices.length;
    await emulator.control.resetCounters();
    assertOk(await b.up());
    const { byRoute } = await emulator.control.counters();
    // Adoption looks for the 14 serial numbers among every device of the application (they carry no
    // owner tag yet): ⌈size/7⌉ pages. The models of the devices just added are then read from the
    // devices carrying this stack's owner tag, the 14 among them: ⌈39/7⌉ pages, not the application's
    // again (20 stacks × 5,000 spent 1,000 searches each there, at the end of every up).
    expect(byRoute["POST /devices/search"]).toBe(Math.ceil(size / PAGE) + Math.ceil(39 / PAGE));
    expect(byRoute["POST /devices"]).toBe(14);
    expect(byRoute["GET /devices/{deviceId}"] ?? 0).toBe(0);
    expect(await stateIds(b)).toEqual(await platformIds(grown));
    assertOk(await b.preview({ expectNoChanges: true }));
    devicesB = grown;
  });

  it("destroying one stack leaves the other's devices, and its refresh and destroy stay exact", async () => {
    await emulator.control.resetCounters();
    assertOk(await a.destroy());
    expect(writesOf((await emulator.control.counters()).byRoute)).toEqual({
      "DELETE /devices/{deviceId}": 25,
    });
    expect(await platformIds(devicesA)).toEqual({});
    expect(Object.keys(await platformIds(devicesB))).toHaveLength(39);
    assertOk(await b.refreshExpectingNoChanges());
    expect(await stateIds(b)).toEqual(await platformIds(devicesB));
    assertOk(await b.preview({ expectNoChanges: true }));
    assertOk(await b.destroy());
    expect(await platformIds(devicesB)).toEqual({});
    // The other writers' devices (5 + 5 deleted by them, 6 added) are untouched.
    expect((await emulator.control.state()).devices.map((d) => d.name).sort()).toEqual(
      ["added-0", "added-0", "added-1", "added-1", "added-2", "added-2"].sort(),
    );
  });
});
