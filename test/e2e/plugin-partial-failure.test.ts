/**
 * A partial failure on the provider plugin is recorded, as on the dynamic front-end: a DeviceFleet
 * of three devices, one held by an RPS record, fails cleanly (the platform's words, no stack trace)
 * with the two added devices in the state (ErrorResourceInitFailed), and once the record is gone the
 * next `up` adds only the third.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { DevicePlatformClient } from "../../sdk";
import { serialNumbers } from "./support/fleet-programs";
import { writesOf } from "./support/platform-writes";
import { createPluginProject, pluginProgram } from "./support/plugin-programs";
import { assertOk, E2E_CREDENTIALS, resourcesOfType } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

const FLEET = "devplatform:index:DeviceFleet";

describe("a partial failure on the plugin", () => {
  let control: EmulatorControl;
  let client: DevicePlatformClient;

  beforeAll(() => {
    const { emulatorUrl } = e2e();
    control = new EmulatorControl(emulatorUrl);
    client = new DevicePlatformClient({ baseUrl: emulatorUrl, ...E2E_CREDENTIALS, maxRetries: 2 });
  });

  it("records what a DeviceFleet did, and the next up converges", async () => {
    const serials = serialNumbers(3);
    const blocked = serials[2] as string;
    await control.seed({ rpsRecords: [{ sn: blocked, profileUrl: `https://rps.example.com/${blocked}` }] });
    const devices = serials.map((sn, i) => ({ sn, name: `plugin-partial-${i}` }));
    const project = await createPluginProject({
      name: "plugin-partial",
      program: pluginProgram([
        { kind: "DeviceFleet", name: "partial-fleet", props: { devices }, outputs: ["deviceIds"] },
      ]),
    });

    const failed = await project.up();
    expect(failed.exitCode).not.toBe(0);
    expect(failed.output).toMatch(/failed for 1 of 3 device\(s\)[\s\S]*rps_record_exists/);
    expect(failed.output).not.toMatch(/\n\s+at /);
    const [partial] = resourcesOfType(await project.exportStack(), FLEET);
    expect(partial?.id).toBe("partial-fleet");
    const recorded = (partial?.outputs?.deviceIds ?? {}) as Record<string, string>;
    expect(Object.keys(recorded).sort()).toEqual(serials.slice(0, 2).sort());
    // The inputs recorded with the partial success are the checked inputs: the next diff works from them.
    expect(Object.keys((partial?.inputs?.devices ?? {}) as object).sort()).toEqual([...serials].sort());

    await client.deleteRpsProfile(blocked);
    await control.resetCounters();
    assertOk(await project.up());
    // Only the missing device is added: one lookup, one add (the two recorded ones cost nothing).
    expect(writesOf((await control.counters()).byRoute)).toEqual({ "POST /devices": 1 });
    const [fleet] = resourcesOfType(await project.exportStack(), FLEET);
    const deviceIds = (fleet?.outputs?.deviceIds ?? {}) as Record<string, string>;
    expect(Object.keys(deviceIds).sort()).toEqual([...serials].sort());
    for (const sn of serials.slice(0, 2)) expect(deviceIds[sn]).toBe(recorded[sn]);
    const onPlatform = (await control.state()).devices.filter((d) => serials.includes(d.sn));
    expect(onPlatform.map((d) => d.deviceId).sort()).toEqual(Object.values(deviceIds).sort());

    assertOk(await project.preview({ expectNoChanges: true }));
    assertOk(await project.destroy());
    expect((await control.state()).devices.filter((d) => serials.includes(d.sn))).toEqual([]);
  });
});
