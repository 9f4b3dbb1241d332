/**
 * A stack written by an earlier release of the provider still loads — the first layout's, and
 * ce02368's (before a dynamic fleet handed the engine its detailed diff): the fixture's state (every
 * kind, through the dynamic resources and through the plugin, the dynamic ones stored as
 * `require("pulumi-devplatform/providers/<kind>")`) is imported into a fresh stack over an emulator
 * holding the same platform state, and preview, refresh and destroy run on it on the real CLI:
 * preview and refresh find nothing to change but the owner tag its devices lack (written before
 * owner tags), which one `up` gives them, announced by the preview; then preview and refresh find
 * nothing, and destroy removes everything the stack declared.
 */
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { e2e } from "./support/e2e-context";
import {
  EARLIER_LAYOUT_PROGRAM,
  EARLIER_LAYOUT_PROJECT,
  EARLIER_LAYOUT_SNS,
  earlierLayoutStack,
  LAYOUT_FIXTURES,
} from "./support/earlier-layout-state";
import { installedPluginDir } from "./support/front-ends";
import { assertOk, PulumiProject } from "./support/pulumi-project";
import { writesOf } from "./support/platform-writes";
import { instanceOf } from "../../provider/deployment/stack-instance";

describe.each(LAYOUT_FIXTURES)("a stack written by $label", (fixture) => {
  let emulator: RunningEmulator;
  let project: PulumiProject;

  beforeAll(async () => {
    const context = e2e();
    const dir = mkdtempSync(path.join(context.workDir, "earlier-layout-"));
    const statePath = path.join(dir, "emulator-state.json");
    copyFileSync(fixture.emulatorStateFile, statePath);
    emulator = await startEmulator({ control: true, statePath });
    project = await PulumiProject.create(
      {
        name: EARLIER_LAYOUT_PROJECT,
        program: EARLIER_LAYOUT_PROGRAM,
        pluginPath: installedPluginDir(context.nodeModules),
      },
      { ...context, emulatorUrl: emulator.url },
    );
    const stackFile = path.join(dir, "stack.json");
    writeFileSync(stackFile, earlierLayoutStack(emulator.url, fixture.stackFile));
    assertOk(await project.cli(["stack", "import", "--file", stackFile]));
  });

  afterAll(async () => {
    await emulator?.stop();
  });

  // The owner tag names the stack instance: its backend's (this project's file backend).
  const marker = () =>
    `pulumi-stack:${EARLIER_LAYOUT_PROJECT}/dev@${instanceOf(`file://${project.stateDir}`)}`;
  const serials: string[] = [
    EARLIER_LAYOUT_SNS.dynamicDevice,
    ...EARLIER_LAYOUT_SNS.dynamicFleet,
    EARLIER_LAYOUT_SNS.pluginDevice,
    ...EARLIER_LAYOUT_SNS.pluginFleet,
  ];
  const given = (count: number) =>
    `${count} device${count === 1 ? "" : "s"} recorded without this stack's owner tag will be given "${marker()}"`;

  it("previews the owner tag its devices lack (one message per resource, counted) and writes nothing", async () => {
    await emulator.control.resetCounters();
    const preview = assertOk(await project.preview());
    expect(writesOf((await emulator.control.counters()).byRoute)).toEqual({});
    expect(preview.output).toContain(`Device sn=${EARLIER_LAYOUT_SNS.dynamicDevice}: ${given(1)}`);
    expect(preview.output).toContain(`Device sn=${EARLIER_LAYOUT_SNS.pluginDevice}: ${given(1)}`);
    expect(preview.output).toContain(`DeviceFleet dynamic-fleet: ${given(2)}`);
    expect(preview.output).toContain(`DeviceFleet plugin-fleet: ${given(2)}`);
    expect(preview.changes).toMatchObject({ update: 4 });
  });

  it("refreshes writing nothing, its only change the owner tag the next up writes", async () => {
    await emulator.control.resetCounters();
    // The engine shows a refresh as the diff a no-change `up` would make after it: the owner tags.
    const refresh = assertOk(await project.refresh());
    expect(writesOf((await emulator.control.counters()).byRoute)).toEqual({});
    expect(refresh.output).toContain(`DeviceFleet plugin-fleet: ${given(2)}`);
    expect(refresh.output).toContain(`Device sn=${EARLIER_LAYOUT_SNS.dynamicDevice}: ${given(1)}`);
  });

  it("gives its 6 devices the owner tag in one up (a PUT each), keeping their tags; then previews no change", async () => {
    await emulator.control.resetCounters();
    assertOk(await project.up());
    const { byRoute } = await emulator.control.counters();
    expect(writesOf(byRoute)).toEqual({ "PUT /devices": 6 });
    const requests = Object.entries(byRoute).filter(([route]) => !route.includes("oauth"));
    console.log(
      `earlier layout: the owner tags' up made ${requests.map(([r, n]) => `${n} ${r}`).join(", ")}`,
    );
    const devices = (await emulator.control.state()).devices.filter((d) => serials.includes(d.sn));
    expect(devices).toHaveLength(6);
    for (const device of devices) {
      const devices: string[] = [EARLIER_LAYOUT_SNS.dynamicDevice, EARLIER_LAYOUT_SNS.pluginDevice];
      const declared = devices.includes(device.sn) ? ["layout"] : [];
      expect(device.tag).toEqual([...declared, marker()]);
    }
    assertOk(await project.preview({ expectNoChanges: true }));
    await emulator.control.resetCounters();
    assertOk(await project.refreshExpectingNoChanges());
    expect(writesOf((await emulator.control.counters()).byRoute)).toEqual({});
  });

  it("destroys every device and record the stack declared", async () => {
    const before = await emulator.control.state();
    expect(before.devices).toHaveLength(6);
    expect(before.rpsRecords).toHaveLength(2);
    const destroy = assertOk(await project.destroy());
    expect(destroy.changes).toMatchObject({ delete: 9 }); // the stack and 8 resources (providers are not counted);
    const after = await emulator.control.state();
    expect(after.devices).toEqual([]);
    expect(after.rpsRecords).toEqual([]);
  });
});
