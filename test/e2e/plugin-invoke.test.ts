/**
 * The package's functions through the plugin's Invoke on the real CLI: `getDevice` by serial number
 * answers the device's deviceId as a string, and a refused argument fails the preview naming the
 * argument and its rule (a check failure, no trace of the plugin's code), without a request.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { serialNumbers } from "./support/fleet-programs";
import { createPluginProject } from "./support/plugin-programs";
import { assertOk, resourcesOfType } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

const invokeProgram = (args: Record<string, unknown>) =>
  [
    `import * as pulumi from "@pulumi/pulumi";`,
    `export const device = pulumi.runtime.invoke("devplatform:index:getDevice", ${JSON.stringify(args)});`,
    "",
  ].join("\n");

describe("functions through Invoke", () => {
  let control: EmulatorControl;

  beforeAll(() => {
    control = new EmulatorControl(e2e().emulatorUrl);
  });

  it("getDevice answers a device, and a bad argument fails naming it", async () => {
    const [sn] = serialNumbers(1) as [string];
    const seeded = await control.seedDevice({ sn, name: "invoked" });
    const project = await createPluginProject({ name: "plugin-invoke", program: invokeProgram({ sn }) });
    assertOk(await project.up());
    const [stack] = resourcesOfType(await project.exportStack(), "pulumi:pulumi:Stack");
    const device = stack?.outputs?.device as { deviceId?: unknown; sn?: unknown; name?: unknown };
    expect(device).toMatchObject({ deviceId: seeded.deviceId, sn, name: "invoked" });
    expect(typeof device.deviceId).toBe("string");

    project.setProgram(invokeProgram({ sn: "not-a-serial" }));
    await control.resetCounters();
    const preview = await project.preview();
    expect(preview.exitCode).not.toBe(0);
    // A check failure on the argument (the SDK prints it as `reason (property)`); the stack under
    // it is the program's own unhandled rejection in @pulumi/pulumi, not the plugin's.
    expect(preview.output).toContain(
      `Invoke of 'devplatform:index:getDevice' failed: getDevice: argument sn must be 12 to 16 hex digits, got "not-a-serial" (sn)`,
    );
    expect(preview.output).not.toMatch(/provider\/plugin|dist\/provider/);
    expect((await control.counters()).total).toBe(0);
  });
});
