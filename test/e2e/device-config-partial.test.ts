/**
 * A PATCH the platform takes only in part, on the real Pulumi CLI: the up fails naming what was not
 * applied, the engine records the DeviceConfig with only what was applied (the provider's error
 * carries `id` and `properties`, which the dynamic provider host reports as a partial failure), and
 * the next up applies the rest.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { DEVICE_CONFIG, deviceWithConfigProgram, type ConfigSpec } from "./support/config-programs";
import { createProject } from "./support/e2e-project";
import { serialNumbers } from "./support/fleet-programs";
import { assertOk, resourcesOfType, type PulumiProject } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

const CONFIG: ConfigSpec = { properties: { reportInterval: 1200, ledEnabled: false, temperatureUnit: 1 } };

describe("a DeviceConfig whose PATCH the platform takes only in part", () => {
  let control: EmulatorControl;
  let project: PulumiProject;
  const device = { sn: serialNumbers(1)[0] as string, name: "partial-sensor" };

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    project = await createProject({
      name: "config-partial",
      program: deviceWithConfigProgram(device, CONFIG),
    });
  });

  afterAll(async () => {
    await control.clearFaults();
  });

  it("fails the up naming the properties not applied, and keeps only what was applied", async () => {
    await control.setFaults({ kinds: [], dropProperties: ["ledEnabled", "temperatureUnit"] });
    const up = await project.up();
    await control.clearFaults();
    expect(up.exitCode).not.toBe(0);
    expect(up.output).toMatch(/not applied: device \d+: ledEnabled and temperatureUnit/);
    expect(up.output).not.toMatch(/\n\s+at /);
    const [config] = resourcesOfType(await project.exportStack(), DEVICE_CONFIG);
    expect(config?.id).toMatch(/^\d+$/);
    expect(config?.outputs?.properties).toEqual({ reportInterval: 1200 });
  });

  it("applies the rest on the next up", async () => {
    const preview = assertOk(await project.preview({ diff: true }));
    expect(preview.changes).toMatchObject({ update: 1 });
    expect(preview.output).toMatch(/\+ ledEnabled\s*: false/);
    assertOk(await project.up());
    const [config] = resourcesOfType(await project.exportStack(), DEVICE_CONFIG);
    expect(config?.outputs?.properties).toEqual(CONFIG.properties);
    const onPlatform = (await control.state()).devices.find((d) => d.deviceId === config?.id);
    expect(onPlatform?.properties).toMatchObject({
      reportInterval: 1200,
      ledEnabled: false,
      temperatureUnit: 1,
    });
    assertOk(await project.preview({ expectNoChanges: true }));
    assertOk(await project.destroy());
  });
});
