/**
 * One serial number declared by two resources of one deployment fails at preview, naming both,
 * with no write: through the plugin, two fleets served by two provider instances of one
 * application (two plugin processes, which learn of each other through the one-owner record);
 * through the dynamic resources, a fleet and a Device, and two Devices (the dynamic host's first
 * check carries no URN: told apart by their inputs; on 62e1db6 that preview succeeded and the
 * second Device's up adopted the first's device). On ce02368 the first two previews succeeded.
 *
 * One application reached by two spellings of its URL (`http://127.0.0.1:PORT`, the stack's, and
 * `http://localhost:PORT`, an explicit plugin provider's) is one application: the same check fires,
 * through two plugin instances and through a dynamic fleet beside a plugin one. On b5b1ef6, which
 * keyed the record by the URL's spelling, both previews succeeded (exit 0) and the `up` would have
 * let the second fleet adopt the first's device.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { e2e } from "./support/e2e-context";
import { createProject } from "./support/e2e-project";
import { serialNumbers } from "./support/fleet-programs";
import { createPluginProject, PLUGIN_PRELUDE } from "./support/plugin-programs";
import { writesOf } from "./support/platform-writes";
import { E2E_CREDENTIALS, type CommandResult } from "./support/pulumi-project";

/**
 * A program of two fleets declaring `shared` both: `site-a` through the default provider, `site-b`
 * through an explicit one reaching the platform at `secondUrl`.
 */
function fleetsOfTwoProviders(secondUrl: string, a: string, b: string, shared: string): string {
  const second = JSON.stringify({ baseUrl: secondUrl, ...E2E_CREDENTIALS });
  return [
    `import * as devplatform from "pulumi-devplatform";`,
    ...PLUGIN_PRELUDE,
    `const second = new Provider("second", ${second});`,
    `new devplatform.DeviceFleet("site-a", { devices: [{ sn: "${a}", name: "a" }, { sn: "${shared}", name: "s" }] });`,
    `new devplatform.DeviceFleet("site-b", { devices: [{ sn: "${b}", name: "b" }, { sn: "${shared}", name: "s" }] }, { provider: second });`,
  ].join("\n");
}

describe("one serial number, one resource", () => {
  let control: EmulatorControl;

  beforeAll(() => {
    control = new EmulatorControl(e2e().emulatorUrl);
  });

  it("fails a plugin preview whose two provider instances' fleets declare one device", async () => {
    const [a, b, shared] = serialNumbers(3) as [string, string, string];
    const program = fleetsOfTwoProviders(e2e().emulatorUrl, a, b, shared);
    const project = await createProject({ name: "one-serial-plugin", program, front: "plugin" });
    await control.resetCounters();
    const preview = await project.preview();
    expect(preview.exitCode, preview.output).not.toBe(0);
    expect(preview.output).toMatch(
      new RegExp(
        `serial number ${shared} is declared by DeviceFleet "site-(a|b)" and by DeviceFleet "site-(a|b)" ` +
          `\\(served by another provider process of this deployment\\): a device can be declared by one resource`,
      ),
    );
    const [, first, other] =
      /declared by DeviceFleet "(site-.)" and by DeviceFleet "(site-.)"/.exec(preview.output) ?? [];
    expect([first, other].sort()).toEqual(["site-a", "site-b"]);
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
  });

  it("fails a dynamic preview whose fleet and Device declare one device", async () => {
    const [a, shared] = serialNumbers(2) as [string, string];
    const program = [
      `import * as devplatform from "pulumi-devplatform";`,
      `const fleet = new devplatform.DeviceFleet("site-a", { devices: [{ sn: "${a}", name: "a" }, { sn: "${shared}", name: "s" }] });`,
      `new devplatform.Device("gw-1", { sn: "${shared}", name: "gw" }, { dependsOn: fleet });`,
    ].join("\n");
    const project = await createProject({ name: "one-serial-dynamic", program });
    await control.resetCounters();
    const preview = await project.preview();
    expect(preview.exitCode, preview.output).not.toBe(0);
    expect(preview.output).toContain(
      `serial number ${shared} is declared by Device "gw-1" and by DeviceFleet "site-a": a device can be declared by one resource`,
    );
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
  });

  it("fails a dynamic preview whose two Devices declare one device", async () => {
    const [shared] = serialNumbers(1) as [string];
    const program = [
      `import * as devplatform from "pulumi-devplatform";`,
      `new devplatform.Device("gw-1", { sn: "${shared}", name: "one" });`,
      `new devplatform.Device("gw-2", { sn: "${shared}", name: "two" });`,
    ].join("\n");
    const project = await createProject({ name: "one-serial-devices", program });
    await control.resetCounters();
    const preview = await project.preview();
    expect(preview.exitCode, preview.output).not.toBe(0);
    expect(preview.output).toMatch(
      new RegExp(
        `serial number ${shared} is declared by (Device "gw-[12]"|a Device resource) and by ` +
          `(Device "gw-[12]"|a Device resource): a device can be declared by one resource`,
      ),
    );
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
  });

  /** The preview failed naming `shared` and both fleets, served by two provider processes: nothing written. */
  async function expectRefusedAcrossProcesses(preview: CommandResult, shared: string): Promise<void> {
    expect(preview.exitCode, preview.output).not.toBe(0);
    const [, first, other] =
      /serial number \S+ is declared by DeviceFleet "(site-.)" and by DeviceFleet "(site-.)" \(served by another provider process of this deployment\)/.exec(
        preview.output,
      ) ?? [];
    expect([first, other].sort()).toEqual(["site-a", "site-b"]);
    expect(preview.output).toContain(`serial number ${shared} is declared by`);
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
  }

  /** The e2e emulator's URL as another spelling of the same host. */
  const otherSpelling = () => e2e().emulatorUrl.replace("//127.0.0.1:", "//localhost:");

  it("fails a plugin preview whose providers reach one application by two spellings of its URL", async () => {
    const [a, b, shared] = serialNumbers(3) as [string, string, string];
    expect(otherSpelling()).not.toBe(e2e().emulatorUrl);
    const program = fleetsOfTwoProviders(otherSpelling(), a, b, shared);
    const project = await createProject({ name: "one-serial-two-spellings", program, front: "plugin" });
    await control.resetCounters();
    const preview = await project.preview();
    await expectRefusedAcrossProcesses(preview, shared);
  });

  it("fails a preview whose dynamic fleet and plugin fleet reach one application by two spellings", async () => {
    const [a, b, shared] = serialNumbers(3) as [string, string, string];
    const second = JSON.stringify({ baseUrl: otherSpelling(), ...E2E_CREDENTIALS });
    const program = [
      `import * as devplatform from "pulumi-devplatform";`,
      ...PLUGIN_PRELUDE,
      `const second = new Provider("second", ${second});`,
      `new devplatform.DeviceFleet("site-a", { devices: [{ sn: "${a}", name: "a" }, { sn: "${shared}", name: "s" }] });`,
      `new Resource("devplatform:index:DeviceFleet", "site-b", { devices: [{ sn: "${b}", name: "b" }, { sn: "${shared}", name: "s" }] }, { provider: second });`,
    ].join("\n");
    const project = await createPluginProject({ name: "one-serial-dynamic-and-plugin", program });
    await control.resetCounters();
    const preview = await project.preview();
    await expectRefusedAcrossProcesses(preview, shared);
  });
});
