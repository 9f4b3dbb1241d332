/**
 * `countReleases` on the real CLI, through both front-ends in one stack (#49 item 4): with the
 * stack's budget `devplatform:maxRemovals` 1 and `devplatform:countReleases` true (the dynamic
 * resources' configuration), and an explicit plugin provider given `maxRemovals: 1` and
 * `countReleases: true`, a fleet with `onRemove: "release"` that lets 2 devices go fails the
 * preview on the budget, on each front-end, writing nothing. On b5b1ef6 the first `up` failed
 * (`countReleases (of provider explicit) is not a setting of the device platform provider`) and
 * the dynamic host ignored the stack's setting (release-budget.test.ts of the integration tests).
 * One `up` (2 fleets of 2 devices) and two previews. Request counts from the emulator's counters.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { e2e } from "./support/e2e-context";
import { serialNumbers } from "./support/fleet-programs";
import { createPluginProject, PLUGIN_PRELUDE } from "./support/plugin-programs";
import { writesOf } from "./support/platform-writes";
import { assertOk, E2E_CREDENTIALS, type PulumiProject } from "./support/pulumi-project";

const OVER =
  "this deployment would remove 2 devices, more than the stack's removal budget devplatform:maxRemovals 1";

describe("countReleases charges a release to the stack's removal budget", () => {
  let control: EmulatorControl;
  let project: PulumiProject;
  const dynamicSerials = serialNumbers(2, "C1");
  const pluginSerials = serialNumbers(2, "C2");

  /** A dynamic fleet and a plugin fleet, both releasing; each keeps the devices given. */
  function program(dynamicKept: readonly string[], pluginKept: readonly string[]): string {
    const provider = JSON.stringify({
      baseUrl: e2e().emulatorUrl,
      ...E2E_CREDENTIALS,
      maxRemovals: 1,
      countReleases: true,
    });
    const devices = (serials: readonly string[]) =>
      JSON.stringify(serials.map((sn, i) => ({ sn, name: `r-${i}` })));
    return [
      `import * as devplatform from "pulumi-devplatform";`,
      ...PLUGIN_PRELUDE,
      `const explicit = new Provider("explicit", ${provider});`,
      `new devplatform.DeviceFleet("dynamic-site", { devices: ${devices(dynamicKept)}, onRemove: "release" });`,
      `new Resource("devplatform:index:DeviceFleet", "plugin-site", { devices: ${devices(pluginKept)}, onRemove: "release" }, { provider: explicit });`,
    ].join("\n");
  }

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    project = await createPluginProject({
      name: "release-budget",
      program: program(dynamicSerials, pluginSerials),
      config: { "devplatform:maxRemovals": "1", "devplatform:countReleases": "true" },
    });
    assertOk(await project.up());
  });

  it("fails the preview of a dynamic fleet releasing 2 under a budget of 1, writing nothing", async () => {
    project.setProgram(program([], pluginSerials));
    await control.resetCounters();
    const preview = await project.preview();
    expect(preview.exitCode, preview.output).not.toBe(0);
    expect(preview.output).toContain(`${OVER}: DeviceFleet dynamic-site removes 2`);
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
  });

  it("fails the preview of a plugin fleet releasing 2 under its explicit provider's budget of 1", async () => {
    project.setProgram(program(dynamicSerials, []));
    await control.resetCounters();
    const preview = await project.preview();
    expect(preview.exitCode, preview.output).not.toBe(0);
    expect(preview.output).toContain(`${OVER}: DeviceFleet plugin-site removes 2`);
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
  });
});
