/**
 * One property of one device has one owner at preview across front-ends: a DeviceConfig of the
 * dynamic resources and one through the plugin, in one deployment, setting `reportInterval` of one
 * device to 900 and 1,200, fail the preview naming both, with no write. The two are served by two
 * provider processes (Pulumi's dynamic provider host and the plugin), which learn of each other's
 * claims through the one-owner record. Before, each process saw only its own DeviceConfigs and the
 * preview succeeded.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { e2e } from "./support/e2e-context";
import { serialNumbers } from "./support/fleet-programs";
import { createPluginProject } from "./support/plugin-programs";
import { writesOf } from "./support/platform-writes";

describe("one property of one device, one owner across front-ends", () => {
  let control: EmulatorControl;

  beforeAll(() => {
    control = new EmulatorControl(e2e().emulatorUrl);
  });

  it("fails a preview whose dynamic and plugin DeviceConfigs set one property of one device", async () => {
    const [sn] = serialNumbers(1) as [string];
    const { deviceId } = await control.seedDevice({ sn, name: "one-owner" });
    const program = [
      `import * as pulumi from "@pulumi/pulumi";`,
      `import * as devplatform from "pulumi-devplatform";`,
      `class Resource extends pulumi.CustomResource {`,
      `  constructor(type: string, name: string, props: pulumi.Inputs) { super(type, name, props); }`,
      `}`,
      `new devplatform.DeviceConfig("dynamic-interval", { deviceIds: ["${deviceId}"], properties: { reportInterval: 900 } });`,
      `new Resource("devplatform:index:DeviceConfig", "plugin-interval", { deviceIds: ["${deviceId}"], properties: { reportInterval: 1200 } });`,
    ].join("\n");
    const project = await createPluginProject({ name: "one-property-owner", program });
    await control.resetCounters();
    const preview = await project.preview();
    expect(preview.exitCode, preview.output).not.toBe(0);
    // A label is the resource's name from its URN; the dynamic host's first check carries no URN
    // (the host reads that request before the package loads), so it may be named by its id, and the
    // engine's own `resource '…' has a problem` names it.
    const label = `(DeviceConfig "(?:dynamic|plugin)-interval"|the DeviceConfig with id ${deviceId})`;
    const message = new RegExp(
      `resource '((?:dynamic|plugin)-interval)' has a problem: DeviceConfig\\.properties\\.reportInterval: ${label} ` +
        `sets reportInterval of device ${deviceId} to (900|1200), and ${label} \\(served by another provider ` +
        "process of this deployment\\) sets it too in this deployment; one property of one device has one owner",
    ).exec(preview.output);
    expect(message, preview.output).not.toBeNull();
    const [, failing, , value, other] = message ?? [];
    expect(value).toBe(failing === "dynamic-interval" ? "900" : "1200");
    // The other is the other front-end's resource (the plugin's check always has its URN).
    const others =
      failing === "dynamic-interval"
        ? ['DeviceConfig "plugin-interval"']
        : ['DeviceConfig "dynamic-interval"', `the DeviceConfig with id ${deviceId}`];
    expect(others).toContain(other);
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
  });
});
