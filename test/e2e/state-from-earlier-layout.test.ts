/**
 * A stack written by an earlier release of the provider still loads — the first layout's, and
 * ce02368's (before a dynamic fleet handed the engine its detailed diff): the fixture's state (every
 * kind, through the dynamic resources and through the plugin, the dynamic ones stored as
 * `require("pulumi-devplatform/providers/<kind>")`) is imported into a fresh stack over an emulator
 * holding the same platform state, and preview, refresh and destroy run on it on the real CLI:
 * preview and refresh find nothing to change, destroy removes everything the stack declared.
 */
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { e2e } from "./support/e2e-context";
import {
  EARLIER_LAYOUT_PROGRAM,
  EARLIER_LAYOUT_PROJECT,
  earlierLayoutStack,
  LAYOUT_FIXTURES,
} from "./support/earlier-layout-state";
import { installedPluginDir } from "./support/front-ends";
import { assertOk, PulumiProject } from "./support/pulumi-project";
import { writesOf } from "./support/platform-writes";

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

  it("previews no change and writes nothing", async () => {
    await emulator.control.resetCounters();
    assertOk(await project.preview({ expectNoChanges: true }));
    expect(writesOf((await emulator.control.counters()).byRoute)).toEqual({});
  });

  it("refreshes with no change and writes nothing", async () => {
    await emulator.control.resetCounters();
    assertOk(await project.refreshExpectingNoChanges());
    expect(writesOf((await emulator.control.counters()).byRoute)).toEqual({});
    assertOk(await project.preview({ expectNoChanges: true }));
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
