/**
 * A project is a tag, changed in place: Device and DeviceFleet against a real emulator. A project
 * change (set, changed, blanked) is one PUT — no DELETE, no add, the deviceId and the configuration
 * stay; adoption of a device tagged with another project retags it with one PUT and says so; a
 * serial number moving between resources of different projects is retagged, never deleted; and a
 * platform that answers the PUT without applying the project (the emulator's `ignoreProject`
 * fault) is a failure naming the device, with nothing deleted.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dynamicOperations } from "../../../provider/dynamic/implementations";
import { resetOwnership } from "../../../provider/guardrails/ownership";
import { platformClient } from "../../../provider/platform-access/platform-client";
import { PartialSuccessError } from "../../../provider/shared/errors";
import type { Inputs } from "../../../provider/shared/input-checks";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { writesOf } from "../../e2e/support/platform-writes";
import { useConfiguredEmulator } from "./support/configured-emulator";
import { upFleet } from "./support/fleet-up";

// The dynamic front-end's answers (its diff: changes, replaces, deleteBeforeReplace).
const deviceImplementation = dynamicOperations.Device;

const env = useConfiguredEmulator();

beforeEach(async () => {
  resetOwnership();
  await env.emulator.control.clearFaults();
});
afterEach(() => vi.restoreAllMocks());

async function platformOf(sn: string) {
  const found = (await env.emulator.control.state()).devices.filter(
    (d) => d.sn.toUpperCase() === sn.toUpperCase(),
  );
  expect(found).toHaveLength(1);
  return found[0] as (typeof found)[number];
}

/** Runs `step` and returns the emulator's request counts by route meanwhile. */
async function counted(step: () => Promise<unknown>): Promise<Record<string, number>> {
  await env.emulator.control.resetCounters();
  await step();
  return (await env.emulator.control.counters()).byRoute;
}

/** What `step` threw (it must throw). */
async function failureOf(step: () => Promise<unknown>): Promise<Error> {
  const outcome: unknown = await step().then(
    () => new Error("expected a failure"),
    (e: unknown) => e,
  );
  if (!(outcome instanceof Error) || outcome.message === "expected a failure") throw outcome;
  return outcome;
}

/** A Device in project `project`, with a configuration value set apart from its default. */
async function deployedDevice(project: string | undefined) {
  const [sn] = serialNumbers(1) as [string];
  const inputs: Inputs = { sn, name: "meter", tags: ["t"], ...(project ? { project } : {}) };
  const { id, outs } = await deviceImplementation.create(inputs);
  await env.emulator.control.changeDevice(id, { properties: { reportInterval: 900 } });
  resetOwnership(); // the next deployment starts with an empty record
  return { sn, id, inputs, outs: outs as Inputs };
}

describe("Device: a project change is an update", () => {
  it.each([
    ["changes", "a", "b"],
    ["sets", undefined, "b"],
    ["blanks", "a", undefined],
  ])(
    "%s the project with exactly one PUT: no DELETE, no POST, same deviceId, configuration kept",
    async (_, from, to) => {
      const before = await deployedDevice(from);
      const properties = (await platformOf(before.sn)).properties;
      const { project: _old, ...rest } = before.inputs;
      const news = { ...rest, ...(to ? { project: to } : {}) };
      const diff = await deviceImplementation.diff(before.id, before.outs, news);
      expect(diff).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
      let outs: Inputs = {};
      const byRoute = await counted(async () => {
        outs = (await deviceImplementation.update(before.id, before.outs, news)).outs ?? {};
      });
      expect(writesOf(byRoute)).toEqual({ "PUT /devices": 1 });
      const after = await platformOf(before.sn);
      expect(after.deviceId).toBe(before.id);
      expect(after.project).toBe(to);
      expect(after.properties).toEqual(properties);
      expect(after.properties.reportInterval).toBe(900);
      expect(outs.project).toBe(to);
    },
  );

  it("fails, naming the device and both projects, when the platform answers the PUT without applying the project", async () => {
    const before = await deployedDevice("a");
    await env.emulator.control.setFaults({ ignoreProject: true });
    const news = { ...before.inputs, name: "renamed", project: "b" };
    let failure: Error | undefined;
    const byRoute = await counted(async () => {
      failure = await failureOf(() => deviceImplementation.update(before.id, before.outs, news));
    });
    expect(failure).toBeInstanceOf(PartialSuccessError);
    expect(failure?.message).toMatch(
      new RegExp(
        `update Device deviceId=${before.id} sn=${before.sn} failed: .*sn=${before.sn} \\(deviceId ${before.id}\\) ` +
          `but did not apply its project: declared project "b", the platform has project "a"`,
      ),
    );
    // Recorded as it is: the name applied, the project not; the next `up` sends the PUT again.
    expect((failure as PartialSuccessError).properties).toMatchObject({ name: "renamed", project: "a" });
    expect(writesOf(byRoute)).toEqual({ "PUT /devices": 1 });
    expect(await platformOf(before.sn)).toMatchObject({ deviceId: before.id, project: "a", name: "renamed" });
  });
});

describe("Device: a project changed out of band", () => {
  it("shows as drift on refresh, and the next up retags it with one PUT", async () => {
    const before = await deployedDevice("a");
    await env.emulator.control.changeDevice(before.id, { project: "elsewhere" });
    const read = await deviceImplementation.read(before.id, before.outs);
    expect(read.inputs).toMatchObject({ project: "elsewhere" });
    const refreshed = read.props as Inputs;
    const diff = await deviceImplementation.diff(before.id, refreshed, before.inputs);
    expect(diff).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    const byRoute = await counted(() => deviceImplementation.update(before.id, refreshed, before.inputs));
    expect(writesOf(byRoute)).toEqual({ "PUT /devices": 1 });
    expect(await platformOf(before.sn)).toMatchObject({ deviceId: before.id, project: "a" });
  });
});

describe("Device: adoption of a device tagged with another project", () => {
  it("retags it with one PUT, keeps its deviceId and configuration, and warns", async () => {
    const [sn] = serialNumbers(1) as [string];
    const existing = await (await platformClient()).addDevice({ snDevEUI: sn, name: "x", project: "old" });
    await env.emulator.control.changeDevice(existing.deviceId, { properties: { reportInterval: 900 } });
    const properties = (await platformOf(sn)).properties;
    const warn = vi.spyOn(pulumi.log, "warn");
    let created: { id: string; outs?: Inputs } = { id: "" };
    const byRoute = await counted(async () => {
      created = await deviceImplementation.create({ sn, name: "x", project: "new" });
    });
    expect(writesOf(byRoute)).toEqual({ "PUT /devices": 1 });
    expect(created.id).toBe(existing.deviceId);
    expect(created.outs).toMatchObject({ project: "new", model: expect.any(String) });
    expect(await platformOf(sn)).toMatchObject({ deviceId: existing.deviceId, project: "new", properties });
    expect(warn.mock.calls.map(([message]) => message)).toEqual([
      `Device sn=${sn}: adopted deviceId ${existing.deviceId}, which was already in this application ` +
        '(updated project; retagged from project "old" to project "new")',
    ]);
  });

  it("records the device, and fails naming it, when the platform does not apply the project", async () => {
    const [sn] = serialNumbers(1) as [string];
    const existing = await (await platformClient()).addDevice({ snDevEUI: sn, name: "x", project: "old" });
    await env.emulator.control.setFaults({ ignoreProject: true });
    let failure: Error | undefined;
    const byRoute = await counted(async () => {
      failure = await failureOf(() => deviceImplementation.create({ sn, name: "y", project: "new" }));
    });
    expect(failure).toBeInstanceOf(PartialSuccessError);
    expect((failure as PartialSuccessError).id).toBe(existing.deviceId);
    expect((failure as PartialSuccessError).properties).toMatchObject({ name: "y", project: "old" });
    expect(failure?.message).toContain(
      `sn=${sn} (deviceId ${existing.deviceId}) but did not apply its project: declared project "new", ` +
        'the platform has project "old"',
    );
    expect(writesOf(byRoute)).toEqual({ "PUT /devices": 1 });
    expect(await platformOf(sn)).toMatchObject({ deviceId: existing.deviceId, project: "old" });
  });
});

/** `count` fleet entries in `project`. */
function entries(count: number, project?: string) {
  return serialNumbers(count).map((sn, i) => ({
    sn,
    name: `fleet-${i}`,
    tags: ["fleet"],
    ...(project ? { project } : {}),
  }));
}

describe("DeviceFleet: a project change is an update", () => {
  it.each([
    ["no settings", {}],
    ['onRemove: "release" and maxRemovals: 0', { onRemove: "release", maxRemovals: 0 }],
  ])(
    "blanking the project of 5 of 12 devices (%s) is 5 PUTs, 5 GETs, no DELETE or POST, ids and configuration kept",
    async (_, settings) => {
      const devices = entries(12, "site");
      const first = await upFleet("blanked", devices, undefined, settings);
      const ids = first.outs.deviceIds as Record<string, string>;
      for (const id of Object.values(ids)) {
        await env.emulator.control.changeDevice(id, { properties: { reportInterval: 900 } });
      }
      const blanked = devices.map((d, i) => (i < 5 ? { sn: d.sn, name: d.name, tags: d.tags } : d));
      let second = first;
      const byRoute = await counted(async () => {
        second = await upFleet("blanked", blanked, first, settings);
      });
      expect(writesOf(byRoute)).toEqual({ "PUT /devices": 5 });
      expect(byRoute["GET /devices/{deviceId}"]).toBe(5); // each retag confirmed, nothing else read
      expect(second.outs.deviceIds).toEqual(ids);
      for (const [i, d] of devices.entries()) {
        const after = await platformOf(d.sn);
        expect(after.project).toBe(i < 5 ? undefined : "site");
        expect(after.properties.reportInterval).toBe(900);
      }
      const again = await counted(() => upFleet("blanked", blanked, second, settings));
      expect(again).toEqual({});
    },
  );

  it("fails naming each device the platform did not retag, deletes nothing, and the next up retags it", async () => {
    const devices = entries(4, "a");
    const first = await upFleet("ignored", devices);
    const ids = first.outs.deviceIds as Record<string, string>;
    const moved = devices.map((d, i) => (i < 2 ? { ...d, project: "b" } : d));
    await env.emulator.control.setFaults({ ignoreProject: true });
    let failure: Error | undefined;
    const byRoute = await counted(async () => {
      failure = await failureOf(() => upFleet("ignored", moved, first));
    });
    expect(failure).toBeInstanceOf(PartialSuccessError);
    expect(failure?.message).toMatch(/^update DeviceFleet ignored failed for 2 of 2 device\(s\):/);
    for (const d of devices.slice(0, 2)) {
      expect(failure?.message).toContain(
        `update DeviceFleet ignored: update ${d.sn} failed: the platform answered Update a Device Information ` +
          `for sn=${d.sn} (deviceId ${ids[d.sn]}) but did not apply its project: declared project "b", the ` +
          'platform has project "a"',
      );
    }
    expect(writesOf(byRoute)).toEqual({ "PUT /devices": 2 });
    const partial = failure as PartialSuccessError;
    expect(partial.properties.deviceIds).toEqual(ids);

    await env.emulator.control.clearFaults();
    const retried = await counted(() =>
      upFleet("ignored", moved, { inputs: first.inputs, outs: partial.properties }),
    );
    expect(writesOf(retried)).toEqual({ "PUT /devices": 2 });
    for (const d of moved)
      expect(await platformOf(d.sn)).toMatchObject({ deviceId: ids[d.sn], project: d.project });
  });
});
