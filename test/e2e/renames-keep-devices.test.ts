/**
 * Resource names are identity in state. Renaming the resources of three Devices in one `up` (here:
 * from display names to serial numbers, as the examples now name them) creates the new resources —
 * which adopt the devices by serial number — and deletes the old ones, whose deletes must leave the
 * devices alone: 0 DELETE requests, the devices still there, state ids = platform ids. Through
 * both front-ends.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { fleetProgram, serialNumbers, type DeviceSpec } from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import { FRONT_ENDS } from "./support/front-ends";
import { assertOk, resourcesOfType, type PulumiProject } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

describe.each(FRONT_ENDS)("renaming the resources of three Devices (%s)", (front) => {
  let control: EmulatorControl;
  let project: PulumiProject;
  let devices: DeviceSpec[];

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    devices = serialNumbers(5).map((sn, i) => ({
      resource: `sensor-${i}`,
      sn,
      name: `sensor-${i}`,
      tags: ["rename"],
    }));
    project = await createProject({ name: `renames-${front}`, program: fleetProgram(devices), front });
    assertOk(await project.up());
  });

  it("keeps the devices: no DELETE, adopted by the new resources, refresh finds no changes", async () => {
    const before = (await control.state()).devices.filter((d) => devices.some((x) => x.sn === d.sn));
    const renamed = devices.map((d, i) => (i < 3 ? { ...d, resource: d.sn } : d));
    project.setProgram(fleetProgram(renamed));
    await control.resetCounters();
    const up = assertOk(await project.up());
    const { byRoute, total } = await control.counters();
    expect(up.changes).toMatchObject({ create: 3, delete: 3 });
    expect(byRoute["DELETE /devices/{deviceId}"] ?? 0).toBe(0);
    expect(byRoute["POST /devices"] ?? 0).toBe(0);
    expect(byRoute["PUT /devices"] ?? 0).toBe(0);
    // The figure of docs/guides/reliability.md: 1 token, 3 serial-number lookups.
    expect(total).toBe(4);
    // Each message once, as the engine's diagnostics (the CLI's output repeats them in its summary).
    const said = (pattern: RegExp) => up.diagnostics.filter((d) => pattern.test(d.message)).length;
    expect(said(/adopted deviceId \d+, which was already in this application \(unchanged\)/)).toBe(3);
    expect(
      said(/not deleting deviceId \d+, because a Device resource in this deployment now manages it/),
    ).toBe(3);

    const after = (await control.state()).devices.filter((d) => devices.some((x) => x.sn === d.sn));
    expect(after.map((d) => d.deviceId).sort()).toEqual(before.map((d) => d.deviceId).sort());
    const inState = resourcesOfType(await project.exportStack(), project.token("Device"));
    expect(inState.map((r) => r.id).sort()).toEqual(after.map((d) => d.deviceId).sort());
    assertOk(await project.refreshExpectingNoChanges());
    assertOk(await project.preview({ expectNoChanges: true }));
    console.log(
      `${front}: renaming 3 Device resources: ${total} platform requests (${JSON.stringify(byRoute)}), 0 DELETE`,
    );
    assertOk(await project.destroy());
    expect((await control.state()).devices.filter((d) => devices.some((x) => x.sn === d.sn))).toEqual([]);
  });
});
