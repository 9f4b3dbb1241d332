/**
 * A project is a tag, changed in place — on the real Pulumi CLI against the emulator, in the layout
 * `devplatform export` generates (a DeviceFleet per project):
 * (a) blanking a fleet's project column is one PUT per device: the deviceIds stay, the values a
 *     DeviceConfig set stay, and preview and refresh are clean afterwards;
 * (b) a serial number moved from the fleet of one project to the fleet of another, and one moved
 *     from a fleet to a Device of another project, in one `up`: no DELETE, no add, each device in
 *     its declared project with the same deviceId; and back from the Device to a fleet.
 * Request counts come from the emulator's counters.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { createProject } from "./support/e2e-project";
import { FRONT_ENDS, type FrontEnd } from "./support/front-ends";
import { serialNumbers, type FleetDeviceSpec } from "./support/fleet-programs";
import { writesOf } from "./support/platform-writes";
import { LAYOUT_PROGRAM, writeLayout, type LayoutSpec } from "./support/project-programs";
import { assertOk, resourcesOfType, type CommandResult, type PulumiProject } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

function specs(count: number, project: string): FleetDeviceSpec[] {
  return serialNumbers(count).map((sn, i) => ({ sn, name: `${project}-${i}`, project, tags: ["e2e"] }));
}

/** A project on the layout program, with its emulator's control client. */
async function layoutProject(name: string, layout: LayoutSpec, front: FrontEnd) {
  const project = await createProject({ name: `${name}-${front}`, program: LAYOUT_PROGRAM, front });
  writeLayout(project.dir, layout);
  return project;
}

describe.each(FRONT_ENDS)("(a) a fleet whose project column is blanked (%s)", (front) => {
  let control: EmulatorControl;
  let project: PulumiProject;
  const devices = specs(6, "site-a");
  const layout: LayoutSpec = {
    fleets: { "fleet-site-a": devices },
    devices: [],
    config: { fleet: "fleet-site-a", properties: { reportInterval: 1800 } },
  };

  const onPlatform = async () =>
    (await control.state()).devices.filter((d) => devices.some((x) => x.sn === d.sn));

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    project = await layoutProject("project-blanked", layout, front);
  });

  it("creates the fleet in its project and configures its devices", async () => {
    assertOk(await project.up());
    expect((await onPlatform()).map((d) => d.project)).toEqual(devices.map(() => "site-a"));
    // The DeviceConfig applies by configuration tasks, shortly after they are created.
    await expect
      .poll(async () => (await onPlatform()).every((d) => d.properties.reportInterval === 1800), {
        timeout: 30_000,
        interval: 200,
      })
      .toBe(true);
  });

  it("is one PUT per device: no DELETE, no add, no task; deviceIds and configuration kept; then clean", async () => {
    const before = await onPlatform();
    const blanked = devices.map(({ project: _project, ...rest }) => rest);
    writeLayout(project.dir, { ...layout, fleets: { "fleet-site-a": blanked } });
    const preview = assertOk(await project.preview());
    expect(preview.output).toContain(
      `DeviceFleet fleet-site-a: 6 to update (${devices[0]?.sn}: project "site-a" → (none);`,
    );
    await control.resetCounters();
    assertOk(await project.up());
    const { byRoute, total } = await control.counters();
    expect(writesOf(byRoute)).toEqual({ "PUT /devices": 6 });
    // The figure of docs/guides/reliability.md: 1 token, 6 PUT, 6 GET to confirm.
    expect(total).toBe(13);
    const after = await onPlatform();
    expect(after.map((d) => [d.sn, d.deviceId]).sort()).toEqual(before.map((d) => [d.sn, d.deviceId]).sort());
    expect(after.every((d) => d.project === undefined)).toBe(true);
    expect(after.map((d) => d.properties)).toEqual(before.map((d) => d.properties));
    expect(after.every((d) => d.properties.reportInterval === 1800)).toBe(true);
    const [fleet] = resourcesOfType(await project.exportStack(), project.token("DeviceFleet"));
    expect(fleet?.outputs?.deviceIds).toEqual(Object.fromEntries(before.map((d) => [d.sn, d.deviceId])));
    assertOk(await project.preview({ expectNoChanges: true }));
    assertOk(await project.refreshExpectingNoChanges());
    assertOk(await project.preview({ expectNoChanges: true }));
    console.log(`blanking the project of 6 fleet devices: ${total} requests (${JSON.stringify(byRoute)})`);
    assertOk(await project.destroy());
  });
});

describe.each(FRONT_ENDS)(
  "(b) serial numbers moved between resources of different projects (%s)",
  (front) => {
    let control: EmulatorControl;
    let project: PulumiProject;
    const [a, b] = [specs(4, "a"), specs(2, "b")];
    const [toFleet, toDevice] = a as [FleetDeviceSpec, FleetDeviceSpec];
    const ids: Record<string, string> = {};

    const platformDevice = async (sn: string) => {
      const found = (await control.state()).devices.filter((d) => d.sn === sn);
      expect(found).toHaveLength(1);
      return found[0] as (typeof found)[number];
    };

    /** An `up` with its writes by route. */
    async function upCounted(
      label: string,
    ): Promise<{ up: CommandResult; writes: Record<string, number>; total: number }> {
      await control.resetCounters();
      const up = assertOk(await project.up());
      const { byRoute, total } = await control.counters();
      console.log(`${front}: ${label}: ${total} requests (${JSON.stringify(byRoute)})`);
      return { up, writes: writesOf(byRoute), total };
    }

    beforeAll(async () => {
      control = new EmulatorControl(e2e().emulatorUrl);
      project = await layoutProject(
        "project-moves",
        { fleets: { "fleet-a": a, "fleet-b": b }, devices: [] },
        front,
      );
      assertOk(await project.up());
      for (const d of [toFleet, toDevice]) {
        const device = await platformDevice(d.sn);
        ids[d.sn] = device.deviceId;
        await control.changeDevice(device.deviceId, { properties: { reportInterval: 900 } });
      }
    });

    it("to the fleet of another project and to a Device of another project in one up: 2 PUTs, no DELETE, no add", async () => {
      writeLayout(project.dir, {
        fleets: { "fleet-a": a.slice(2), "fleet-b": [...b, { ...toFleet, project: "b" }] },
        devices: [{ ...toDevice, project: "c" }],
      });
      const { up, writes, total } = await upCounted("fleet-a → fleet-b and fleet-a → Device, one up");
      expect(writes).toEqual({ "PUT /devices": 2 });
      // The figure of docs/guides/reliability.md: 1 token, 2 searches, 2 PUT, 2 GET.
      expect(total).toBe(7);
      for (const [sn, project] of [
        [toFleet.sn, "b"],
        [toDevice.sn, "c"],
      ] as const) {
        expect(await platformDevice(sn)).toMatchObject({ deviceId: ids[sn], project });
        expect((await platformDevice(sn)).properties.reportInterval).toBe(900);
      }
      const said = (pattern: RegExp) => up.diagnostics.filter((d) => pattern.test(d.message)).length;
      expect(
        said(new RegExp(`adopted deviceId ${ids[toDevice.sn]}.*retagged from project "a" to project "c"`)),
      ).toBe(1);
      expect(said(/DeviceFleet fleet-a: not deleting 2 removed device\(s\) that another resource/)).toBe(1);

      const stack = await project.exportStack();
      const fleetB = resourcesOfType(stack, project.token("DeviceFleet")).find((r) =>
        r.urn.endsWith("::fleet-b"),
      );
      expect((fleetB?.outputs?.deviceIds as Record<string, string>)[toFleet.sn]).toBe(ids[toFleet.sn]);
      expect(resourcesOfType(stack, project.token("Device")).map((r) => r.id)).toEqual([ids[toDevice.sn]]);
      assertOk(await project.preview({ expectNoChanges: true }));
      assertOk(await project.refreshExpectingNoChanges());
    });

    it("back from the Device to the fleet of its first project in one up: 1 PUT, no DELETE, no add", async () => {
      writeLayout(project.dir, {
        fleets: { "fleet-a": [toDevice, ...a.slice(2)], "fleet-b": [...b, { ...toFleet, project: "b" }] },
        devices: [],
      });
      const { writes, total } = await upCounted("Device → fleet-a, one up");
      expect(writes).toEqual({ "PUT /devices": 1 });
      expect(total).toBe(4);
      expect(await platformDevice(toDevice.sn)).toMatchObject({ deviceId: ids[toDevice.sn], project: "a" });
      expect(resourcesOfType(await project.exportStack(), project.token("Device"))).toEqual([]);
      assertOk(await project.preview({ expectNoChanges: true }));
      assertOk(await project.refreshExpectingNoChanges());
      assertOk(await project.destroy());
      const left = (await control.state()).devices.filter((d) => [...a, ...b].some((x) => x.sn === d.sn));
      expect(left).toEqual([]);
    });
  },
);
