/**
 * The provider plugin on the real CLI, through the launcher of the installed (packed) package: a
 * Device declared as `devplatform:index:Device` goes create → clean preview → update → destroy,
 * with the platform requests of each step counted exactly.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { serialNumbers } from "./support/fleet-programs";
import { writesOf } from "./support/platform-writes";
import { createPluginProject, pluginProgram } from "./support/plugin-programs";
import { assertOk, resourcesOfType, type PulumiProject } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

const DEVICE = "devplatform:index:Device";

describe("a Device on the provider plugin", () => {
  let control: EmulatorControl;
  let project: PulumiProject;
  let sn: string;
  const program = (name: string) =>
    pluginProgram([
      { kind: "Device", name: "sensor", props: { sn, name, tags: ["plugin"] }, outputs: ["deviceId"] },
    ]);

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    [sn] = serialNumbers(1) as [string];
    project = await createPluginProject({ name: "plugin-device", program: program("sensor one") });
  });

  it("creates, previews clean, updates in place and destroys, with exact request counts", async () => {
    await control.resetCounters();
    const up = assertOk(await project.up());
    const created = await control.counters();
    expect(up.changes).toMatchObject({ create: 2 });
    // A token, the serial-number lookup, the add and the read of the new device.
    expect(created.byRoute).toEqual({
      "POST /oauth/token": 1,
      "POST /devices/search": 1,
      "POST /devices": 1,
      "GET /devices/{deviceId}": 1,
    });
    const device = (await control.state()).devices.find((d) => d.sn === sn);
    expect(device?.name).toBe("sensor one");
    const [state] = resourcesOfType(await project.exportStack(), DEVICE);
    expect(state?.id).toBe(device?.deviceId);
    expect(typeof state?.id).toBe("string");
    expect(state?.outputs?.deviceId).toBe(device?.deviceId);

    await control.resetCounters();
    assertOk(await project.preview({ expectNoChanges: true }));
    expect((await control.counters()).total).toBe(0);

    project.setProgram(program("sensor two"));
    await control.resetCounters();
    const update = assertOk(await project.up());
    const updated = await control.counters();
    expect(update.changes).toMatchObject({ update: 1 });
    const step = update.steps.find((s) => s.type === DEVICE && s.op === "update");
    expect(step?.detailedDiff).toEqual({ name: { diffKind: "update", inputDiff: true } });
    expect(writesOf(updated.byRoute)).toEqual({ "PUT /devices": 1 });
    expect(updated.byRoute).toEqual({
      "POST /oauth/token": 1,
      "PUT /devices": 1,
      "GET /devices/{deviceId}": 1,
    });
    expect((await control.state()).devices.find((d) => d.sn === sn)).toMatchObject({
      deviceId: device?.deviceId,
      name: "sensor two",
    });
    assertOk(await project.preview({ expectNoChanges: true }));

    await control.resetCounters();
    const destroy = assertOk(await project.destroy());
    const destroyed = await control.counters();
    expect(destroy.changes).toMatchObject({ delete: 2 });
    // The serial-number check before the delete, then the delete.
    expect(destroyed.byRoute).toEqual({
      "POST /oauth/token": 1,
      "GET /devices/{deviceId}": 1,
      "DELETE /devices/{deviceId}": 1,
    });
    expect((await control.state()).devices.find((d) => d.sn === sn)).toBeUndefined();
    console.log(
      `plugin Device: create ${created.total} requests, no-change preview 0, update ${updated.total}, destroy ${destroyed.total}`,
    );
  });
});
