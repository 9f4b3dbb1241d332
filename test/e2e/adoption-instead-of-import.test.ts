/**
 * Bringing a device that is already on the platform under a stack. The engine's `import` resource
 * option does not work for dynamic resources (its Read carries no properties, so the dynamic
 * provider host cannot find the provider); adoption by serial number does the job instead.
 */
import { describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { createProject } from "./support/e2e-project";
import { serialNumbers } from "./support/fleet-programs";
import { assertOk, resourcesOfType } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";
import { instanceOf } from "../../provider/deployment/stack-instance";

const DEVICE = "pulumi-nodejs:dynamic/devplatform:Device";

describe("a device already on the platform", () => {
  it("is adopted by serial number: one warning, the same deviceId, no duplicate, then no changes", async () => {
    const control = new EmulatorControl(e2e().emulatorUrl);
    const [sn] = serialNumbers(1) as [string];
    const existing = await control.seedDevice({ sn, name: "made-by-hand" });
    const program = (options: string) =>
      `import { Device } from "pulumi-devplatform";\n` +
      `new Device("adopted", { sn: "${sn}", name: "now-managed", tags: ["adopted"] }${options});\n`;

    const project = await createProject({
      name: "adoption",
      program: program(", { import: " + JSON.stringify(existing.deviceId) + " }"),
    });
    const imported = await project.up();
    // The engine's limitation, recorded here so that docs/guides/resources.md changes when the engine does.
    expect(imported.exitCode).not.toBe(0);
    expect(imported.output).toContain("Cannot read properties of undefined (reading 'toJavaScript')");

    project.setProgram(program(""));
    const up = assertOk(await project.up());
    expect(up.output).toContain(
      `adopted deviceId ${existing.deviceId}, which was already in this application`,
    );
    const devices = (await control.state()).devices.filter((d) => d.sn === sn);
    expect(devices).toEqual([
      expect.objectContaining({
        deviceId: existing.deviceId,
        name: "now-managed",
        tag: ["adopted", `pulumi-stack:adoption/dev@${instanceOf(`file://${project.stateDir}`)}`],
      }),
    ]);
    expect(resourcesOfType(await project.exportStack(), DEVICE).map((r) => r.id)).toEqual([
      existing.deviceId,
    ]);
    assertOk(await project.preview({ expectNoChanges: true }));
    assertOk(await project.destroy());
  });
});
