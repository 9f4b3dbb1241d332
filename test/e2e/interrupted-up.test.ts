/**
 * An `up` killed part-way (SIGKILL to the CLI) converges on the next `up`: the platform holds
 * exactly the declared devices, with no duplicate, and state matches it.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { deviceSpecs, fleetProgram, type DeviceSpec } from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import { assertOk, type PulumiProject, resourcesOfType } from "./support/pulumi-project";

describe("an up of 50 devices killed part-way", () => {
  let control: EmulatorControl;
  let project: PulumiProject;
  let devices: DeviceSpec[];

  beforeAll(async () => {
    control = new EmulatorControl(inject("e2e").emulatorUrl);
    devices = deviceSpecs(50, ["interrupted"]);
    project = await createProject({ name: "interrupted", program: fleetProgram(devices) });
  });

  it("converges on the next up with exactly the declared devices", async () => {
    // Slow the platform down so the kill lands while creates are in flight.
    await control.setFaults({ rate: 1, kinds: ["delay"], delayMs: 150, pathIncludes: "/devices" });
    const killed = await project.up({ killWhen: (output) => (output.match(/created/g) ?? []).length >= 15 });
    await control.clearFaults();
    expect(killed.exitCode).not.toBe(0);

    const serials = new Set(devices.map((d) => d.sn));
    const partial = (await control.state()).devices.filter((d) => serials.has(d.sn));
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(50);

    // A killed CLI leaves the file backend's lock behind; `pulumi cancel` is the user's way out.
    assertOk(await project.cli(["cancel", "--yes"]));
    const again = await project.up();
    assertOk(again);
    const onPlatform = (await control.state()).devices.filter((d) => serials.has(d.sn));
    expect(onPlatform).toHaveLength(50);
    expect(new Set(onPlatform.map((d) => d.sn)).size).toBe(50);

    const inState = resourcesOfType(await project.exportStack(), "pulumi-nodejs:dynamic/devplatform:Device");
    expect(inState.map((r) => r.id).sort()).toEqual(onPlatform.map((d) => d.deviceId).sort());
    assertOk(await project.preview({ expectNoChanges: true }));
    console.log(
      `interrupted up: ${partial.length} of 50 devices on the platform at the kill; ` +
        `the next up adopted the ones missing from state (${(again.output.match(/adopted deviceId/g) ?? []).length} adopted)`,
    );
    assertOk(await project.destroy());
  });
});
