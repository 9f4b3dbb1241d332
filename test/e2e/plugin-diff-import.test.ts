/**
 * The plugin's diffs and imports on the real CLI, through the installed launcher:
 * - `pulumi preview --diff` of a 2,000-device DeviceFleet with 3 renamed devices shows exactly
 *   those 3 devices' changes (paths `devices["SN"].name`), and no other serial number;
 * - `pulumi import` of a Device (deviceId), an RpsProfile (serial number), a DeviceConfig
 *   (`deviceId:propertyIds`) and a DeviceFleet (`project=…`), each followed by an empty preview of a
 *   program declaring what was imported; and the `import` resource option.
 * (`pulumi import` runs with `--generate-code=false`: code generation would ask the language host,
 * which the project's does not implement.)
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { serialNumbers } from "./support/fleet-programs";
import { writesOf } from "./support/platform-writes";
import { createPluginProject, pluginProgram, type PluginResource } from "./support/plugin-programs";
import { assertOk, resourcesOfType } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

const FLEET = "devplatform:index:DeviceFleet";

let control: EmulatorControl;
beforeAll(() => {
  control = new EmulatorControl(e2e().emulatorUrl);
});

describe("preview --diff of a plugin DeviceFleet", () => {
  it("of 2,000 devices with 3 renamed shows exactly those 3 devices' changes", async () => {
    const sns = serialNumbers(2000);
    const devices = sns.map((sn, i) => ({ sn, name: `device-${i}`, tags: ["site-a"] }));
    const program = (list: typeof devices) =>
      pluginProgram([{ kind: "DeviceFleet", name: "site-a", props: { devices: list } }]);
    const project = await createPluginProject({ name: "plugin-fleet-diff", program: program(devices) });
    assertOk(await project.up());
    assertOk(await project.preview({ expectNoChanges: true }));

    const renamed = [17, 1000, 1999];
    project.setProgram(
      program(devices.map((d, i) => (renamed.includes(i) ? { ...d, name: `${d.name}-b` } : d))),
    );
    await control.resetCounters();
    const preview = assertOk(await project.preview({ diff: true }));
    expect((await control.counters()).total).toBe(0);
    const step = preview.steps.find((s) => s.type === FLEET && s.op === "update");
    const paths = Object.keys(step?.detailedDiff ?? {}).sort();
    expect(paths).toEqual(renamed.map((i) => `devices[${JSON.stringify(sns[i])}].name`).sort());
    // What a reviewer reads: the renamed devices and their old and new names, and no other device.
    const shown = sns.filter((sn) => preview.stdout.includes(sn));
    expect(shown.sort()).toEqual(renamed.map((i) => sns[i]).sort());
    for (const i of renamed) expect(preview.stdout).toContain(`device-${i}-b`);
    const lines = preview.stdout.split("\n").filter((line) => sns.some((sn) => line.includes(sn)));
    console.log(
      `plugin DeviceFleet of 2,000, 3 renamed: preview --diff shows ${paths.length} paths, ${lines.length} lines ` +
        `naming a serial number (${preview.stdout.split("\n").length} lines in all), 0 requests`,
    );
    console.log(
      preview.stdout
        .split("\n")
        .filter((l) => /devices|name/.test(l))
        .join("\n"),
    );
    assertOk(await project.destroy());
  });
});

describe("pulumi import on the plugin", () => {
  it("imports a Device, an RpsProfile, a DeviceConfig and a DeviceFleet, each then previewing empty but for the owner tag", async () => {
    const project = `import-${serialNumbers(1)[0]}`;
    const [deviceSn, rpsSn, configSn] = [
      serialNumbers(1)[0],
      serialNumbers(1, "AC")[0],
      serialNumbers(1)[0],
    ] as [string, string, string];
    const fleetSns = serialNumbers(5);
    const seeded = await control.seed({
      devices: [
        { sn: deviceSn, name: "lobby", description: "by the door", tag: ["x"] },
        { sn: configSn, name: "configured", properties: { reportInterval: 900 } },
        ...fleetSns.map((sn, i) => ({ sn, name: `fleet-${i}`, project, tag: ["f"] })),
      ],
      rpsRecords: [{ sn: rpsSn, profileUrl: "https://rps.example/p/import" }],
    });
    const idOf = (sn: string) => seeded.devices.find((d) => d.sn === sn)?.deviceId as string;
    const declared: PluginResource[] = [
      {
        kind: "Device",
        name: "lobby",
        props: { sn: deviceSn, name: "lobby", description: "by the door", tags: ["x"] },
      },
      { kind: "RpsProfile", name: "rps", props: { sn: rpsSn, profileUrl: "https://rps.example/p/import" } },
      {
        kind: "DeviceConfig",
        name: "config",
        props: { deviceIds: [idOf(configSn)], properties: { reportInterval: 900 } },
      },
      {
        kind: "DeviceFleet",
        name: "fleet",
        props: { devices: fleetSns.map((sn, i) => ({ sn, name: `fleet-${i}`, project, tags: ["f"] })) },
      },
    ];
    const ids = [idOf(deviceSn), rpsSn, `${idOf(configSn)}:reportInterval`, `project=${project}`];
    const stack = await createPluginProject({ name: "plugin-import", program: pluginProgram([]) });
    assertOk(await stack.up());
    for (const [index, resource] of declared.entries()) {
      await control.resetCounters();
      const imported = await stack.import(
        `devplatform:index:${resource.kind}`,
        resource.name,
        ids[index] as string,
      );
      assertOk(imported);
      expect(writesOf((await control.counters()).byRoute)).toEqual({});
      stack.setProgram(pluginProgram(declared.slice(0, index + 1)));
      await control.resetCounters();
      // Seeded without this stack's owner tag, the devices gain it at the next up, which the preview says.
      const tagged = resource.kind === "Device" ? 1 : resource.kind === "DeviceFleet" ? 5 : 0;
      const pending = declared.slice(0, index + 1).filter((r) => ["Device", "DeviceFleet"].includes(r.kind));
      const preview = assertOk(await stack.preview());
      expect(preview.changes).toMatchObject({ update: pending.length });
      if (tagged > 0) {
        expect(preview.output).toContain(
          `${tagged} device${tagged === 1 ? "" : "s"} recorded without this stack's owner tag`,
        );
      }
      console.log(
        `plugin import of ${resource.kind} ${ids[index]}: next preview empty but for ${tagged} owner tags`,
      );
    }
    const state = await stack.exportStack();
    expect(resourcesOfType(state, FLEET)[0]?.id).toBe("fleet");
    expect(resourcesOfType(state, "devplatform:index:Device")[0]?.id).toBe(idOf(deviceSn));
    await control.resetCounters();
    assertOk(await stack.up());
    expect(writesOf((await control.counters()).byRoute)).toEqual({ "PUT /devices": 6 });
    assertOk(await stack.preview({ expectNoChanges: true }));
    assertOk(await stack.destroy());
  });

  it("imports by the import resource option, then previews empty", async () => {
    const [sn] = serialNumbers(1) as [string];
    const seeded = await control.seedDevice({ sn, name: "option", tag: ["o"] });
    const resource = (opts?: string): PluginResource => ({
      kind: "Device",
      name: "option",
      props: { sn, name: "option", tags: ["o"] },
      ...(opts ? { opts } : {}),
    });
    const stack = await createPluginProject({
      name: "plugin-import-option",
      program: pluginProgram([resource(`{ import: ${JSON.stringify(seeded.deviceId)} }`)]),
    });
    await control.resetCounters();
    const up = assertOk(await stack.up());
    expect(up.changes).toMatchObject({ import: 1 });
    // Seeded without this stack's owner tag: the up that imports it also gives it the tag.
    expect(writesOf((await control.counters()).byRoute)).toEqual({ "PUT /devices": 1 });
    expect(resourcesOfType(await stack.exportStack(), "devplatform:index:Device")[0]?.id).toBe(
      seeded.deviceId,
    );
    stack.setProgram(pluginProgram([resource()]));
    assertOk(await stack.preview({ expectNoChanges: true }));
    assertOk(await stack.destroy());
  });
});
