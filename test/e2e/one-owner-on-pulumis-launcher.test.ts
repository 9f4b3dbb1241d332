/**
 * One owner on the toolchain users run: Pulumi's own `pulumi-resource-pulumi-nodejs` (node under
 * `sh`, no `exec`) and Pulumi's own Node.js language host, as the e2e toolchain provisions them.
 *
 * - Two DeviceFleets of one name under different parents are two owners, in both front-ends: a
 *   serial number moved from one to the other in one `up` is adopted, never deleted — also into
 *   the fleet the dynamic provider host checked first (before this package was loaded to note the
 *   call's URN), while that fleet's adoption waits.
 * - A move from the dynamic resources to the plugin split over two `up`s (the new resources
 *   first, the old ones removed later) deletes nothing either.
 * - A move whose two front-ends spell the platform's base URL differently shares one record.
 * - A record that cannot be trusted or created fails closed: nothing deleted, the path named.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { e2e } from "./support/e2e-context";
import { createProject } from "./support/e2e-project";
import { serialNumbers } from "./support/fleet-programs";
import { FRONT_ENDS } from "./support/front-ends";
import { createPluginProject } from "./support/plugin-programs";
import { writesOf } from "./support/platform-writes";
import { assertOk, resourcesOfType, type PulumiProject } from "./support/pulumi-project";

let control: EmulatorControl;

beforeAll(() => {
  control = new EmulatorControl(e2e().emulatorUrl);
});

/** The launcher the engine ran for dynamic resources is Pulumi's own (node under sh, no exec). */
function expectPulumisLauncher(): void {
  const { pulumiDir } = e2e();
  expect(pulumiDir).toMatch(/toolchain-/);
}

function devicesOf(sns: readonly string[], label: string): { sn: string; name: string }[] {
  return sns.map((sn, i) => ({ sn, name: `${label}-${i}` }));
}

/** Two fleets named `sensors`, one under a Warehouse component, one under an Office. */
function sameNamedFleets(front: "plugin" | "dynamic", warehouse: string[], office: string[]): string {
  const fleet =
    front === "plugin"
      ? `(name: string, props: pulumi.Inputs, opts: pulumi.CustomResourceOptions) =>
    new (class extends pulumi.CustomResource {})("devplatform:index:DeviceFleet", name, props, opts)`
      : `(name: string, props: pulumi.Inputs, opts: pulumi.CustomResourceOptions) =>
    new DeviceFleet(name, props as never, opts)`;
  return `
import * as pulumi from "@pulumi/pulumi";
import { DeviceFleet } from "pulumi-devplatform";
const fleet = ${fleet};
const warehouse = new pulumi.ComponentResource("acme:site:Warehouse", "warehouse", {});
const office = new pulumi.ComponentResource("acme:site:Office", "office", {});
fleet("sensors", { devices: ${JSON.stringify(devicesOf(warehouse, "w"))} }, { parent: warehouse });
fleet("sensors", { devices: ${JSON.stringify(devicesOf(office, "o"))} }, { parent: office });
void DeviceFleet;
`;
}

async function countedUp(project: PulumiProject) {
  await control.resetCounters();
  const up = assertOk(await project.up());
  const { byRoute, total } = await control.counters();
  return { up, writes: writesOf(byRoute), total };
}

async function platformIds(sns: readonly string[]): Promise<Record<string, string>> {
  const devices = (await control.state()).devices.filter((d) => sns.includes(d.sn));
  return Object.fromEntries(devices.map((d) => [d.sn, d.deviceId]));
}

describe.each(["plugin", "dynamic"] as const)(
  "two %s DeviceFleets of one name under different parents",
  (front) => {
    it("are two owners: a serial number moved from one to the other is adopted, never deleted", async () => {
      expectPulumisLauncher();
      const [a, b, c] = serialNumbers(3, "24");
      const w = [a as string, b as string];
      const o = [c as string];
      const project = await (front === "plugin" ? createPluginProject : createProject)({
        name: `same-name-${front}`,
        program: sameNamedFleets(front, w, o),
      });
      assertOk(await project.up());
      const before = await platformIds([...w, ...o]);
      expect(Object.keys(before)).toHaveLength(3);

      project.setProgram(sameNamedFleets(front, [a as string], [b as string, c as string]));
      const { writes, up } = await countedUp(project);
      console.log(`${front}: moving ${b} between same-named fleets: writes ${JSON.stringify(writes)}`);
      // The adopting fleet changes nothing (the device matches but for its name: one PUT), the
      // losing fleet lets go: no DELETE.
      expect(writes["DELETE /devices/{deviceId}"]).toBeUndefined();
      expect(await platformIds([...w, ...o])).toEqual(before);
      expect(up.output).toMatch(/sensors/);
      assertOk(await project.preview({ expectNoChanges: true }));
      assertOk(await project.refreshExpectingNoChanges());
      assertOk(await project.destroy());
      expect(await platformIds([...w, ...o])).toEqual({});
    });
  },
);

/**
 * Two dynamic fleets named `sensors`, under a Warehouse and an Office. With `gate`, the office
 * fleet is registered only once the file `gate` exists in the project, so that the test decides
 * when its check comes: after the warehouse fleet's.
 */
function gatedSameNamedFleets(warehouse: string[], office: string[], gate?: string): string {
  const officeDevices = JSON.stringify(devicesOf(office, "o"));
  const devices =
    gate === undefined
      ? officeDevices
      : `pulumi.output(new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (existsSync(${JSON.stringify(gate)})) { clearInterval(timer); resolve(); }
    }, 50);
  })).apply(() => ${officeDevices})`;
  return `
import { existsSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import { DeviceFleet } from "pulumi-devplatform";
const warehouse = new pulumi.ComponentResource("acme:site:Warehouse", "warehouse", {});
const office = new pulumi.ComponentResource("acme:site:Office", "office", {});
new DeviceFleet("sensors", { devices: ${JSON.stringify(devicesOf(warehouse, "w"))} }, { parent: warehouse });
new DeviceFleet("sensors", { devices: ${devices} }, { parent: office });
`;
}

describe("two dynamic DeviceFleets of one name, the one the host checked first adopting", () => {
  // The dynamic provider host calls its first check before it loads this package, so that check
  // carries no URN: the warehouse fleet's declaration names only \`sensors\`. (The plugin is handed
  // every request's URN: this is the dynamic front-end's case alone.)
  it("keeps the device the office fleet gives up, even when the office fleet decides first", async () => {
    const [a, b] = serialNumbers(2, "24") as [string, string];
    const project = await createProject({ name: "same-name-first", program: gatedSameNamedFleets([a], [b]) });
    assertOk(await project.up());
    const before = await platformIds([a, b]);

    const gate = path.join(project.dir, "office-may-register");
    project.setProgram(gatedSameNamedFleets([a, b], [], gate));
    await control.resetCounters();
    // The warehouse fleet's lookup of b waits at the hold: by then its check is done, and the
    // office fleet may register. The office fleet's removal of b then decides before the
    // warehouse fleet has adopted b (no claim yet): only the declaration can keep b.
    const hold = await control.hold("POST /devices/search", 0, "perform");
    const running = project.up();
    await control.waitUntilHeld(hold, 1);
    writeFileSync(gate, "");
    await stepEnded(project, "acme:site:Office$");
    await control.release(hold);
    const up = assertOk(await running);
    const { byRoute } = await control.counters();
    console.log(`moving ${b} into the first-checked fleet: ${JSON.stringify(byRoute)}`);
    expect(writesOf(byRoute)["DELETE /devices/{deviceId}"]).toBeUndefined();
    expect(await platformIds([a, b])).toEqual(before);
    expect(up.output).toMatch(/not deleting 1 removed device/);
    assertOk(await project.preview({ expectNoChanges: true }));
    assertOk(await project.destroy());
  });
});

/**
 * Resolves once the engine's event log of the project's running command records the end of a step
 * of a resource whose URN contains `urnPart` (the engine writes the log as it goes).
 */
async function stepEnded(project: PulumiProject, urnPart: string): Promise<void> {
  for (;;) {
    const logs = readdirSync(project.dir).filter((f) => /^\.events-\d+\.jsonl$/.test(f));
    const latest = logs.sort((x, y) => Number(/\d+/.exec(y)?.[0]) - Number(/\d+/.exec(x)?.[0]))[0];
    const text = latest ? readFileSync(path.join(project.dir, latest), "utf8") : "";
    const ended = text.split("\n").some((line) => {
      if (!line.includes('"resOutputsEvent"')) return false;
      try {
        const event = JSON.parse(line) as { resOutputsEvent?: { metadata?: { urn?: string } } };
        return event.resOutputsEvent?.metadata?.urn?.includes(urnPart) === true;
      } catch {
        return false; // the line being written
      }
    });
    if (ended) return;
    await sleep(50);
  }
}

/** A dynamic Device, a plugin Device, or both, of one serial number. */
function splitMoveProgram(
  sn: string,
  declare: { dynamic: boolean; plugin: boolean },
  pluginBaseUrl?: string,
): string {
  const lines = [
    `import * as pulumi from "@pulumi/pulumi";`,
    `import { Device } from "pulumi-devplatform";`,
    `class Resource extends pulumi.CustomResource {}`,
    `class Provider extends pulumi.ProviderResource {}`,
  ];
  if (declare.dynamic) lines.push(`new Device("old-${sn}", { sn: "${sn}", name: "moved" });`);
  if (declare.plugin) {
    const opts =
      pluginBaseUrl === undefined
        ? "{}"
        : `{ provider: new Provider("devplatform", "spelled", { baseUrl: ${JSON.stringify(pluginBaseUrl)}, clientId: "demo-client", clientSecret: pulumi.secret("demo-secret") }) }`;
    lines.push(
      `new Resource("devplatform:index:Device", "new-${sn}", { sn: "${sn}", name: "moved" }, ${opts});`,
    );
  }
  return lines.join("\n") + "\n";
}

describe("a move from the dynamic resources to the plugin", () => {
  it("split over two ups (both declaring the device at once) is refused at preview, naming both, with no write", async () => {
    // One serial number declared by two resources of one deployment fails at preview (see
    // provider/guardrails/duplicate-serials.ts): the move is made in one `up` (the next test).
    expectPulumisLauncher();
    const [sn] = serialNumbers(1, "24") as [string];
    const project = await createPluginProject({
      name: "split-move",
      program: splitMoveProgram(sn, { dynamic: true, plugin: false }),
    });
    assertOk(await project.up());
    const before = await platformIds([sn]);

    project.setProgram(splitMoveProgram(sn, { dynamic: true, plugin: true }));
    await control.resetCounters();
    const preview = await project.preview();
    expect(preview.exitCode).not.toBe(0);
    expect(preview.output).toContain(`serial number ${sn} is declared by`);
    expect(preview.output).toContain(`new-${sn}`);
    const up = await project.up();
    expect(up.exitCode).not.toBe(0);
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
    expect(await platformIds([sn])).toEqual(before);

    project.setProgram(splitMoveProgram(sn, { dynamic: false, plugin: true }));
    const move = await countedUp(project);
    expect(move.writes).toEqual({});
    expect(await platformIds([sn])).toEqual(before);
    assertOk(await project.preview({ expectNoChanges: true }));
    assertOk(await project.destroy());
    expect(await platformIds([sn])).toEqual({});
  });

  it("in one up, with the plugin's base URL spelled differently, shares one record and deletes nothing", async () => {
    const [sn] = serialNumbers(1, "24") as [string];
    const project = await createPluginProject({
      name: "spelled-move",
      program: splitMoveProgram(sn, { dynamic: true, plugin: false }),
    });
    assertOk(await project.up());
    const before = await platformIds([sn]);
    const spelled = `${e2e()
      .emulatorUrl.replace(/^http:/, "HTTP:")
      .replace("127.0.0.1", "127.0.0.1")}/`;
    project.setProgram(splitMoveProgram(sn, { dynamic: false, plugin: true }, spelled));
    const move = await countedUp(project);
    console.log(`move with ${spelled}: writes ${JSON.stringify(move.writes)}`);
    expect(move.writes).toEqual({});
    expect(await platformIds([sn])).toEqual(before);
    assertOk(await project.destroy());
  });
});

describe.each(FRONT_ENDS)("a one-owner record that cannot be trusted (%s)", (front) => {
  /** One Device, or none: its removal is the delete the record must allow. */
  const program = (sn: string, declared: boolean) =>
    [
      `import * as devplatform from "pulumi-devplatform";`,
      declared
        ? `new devplatform.Device(${JSON.stringify(sn)}, { sn: ${JSON.stringify(sn)}, name: "guarded" });`
        : "",
      "",
    ].join("\n");

  it("fails the delete before any request, naming the path, when the record's root is writable by others", async () => {
    const [sn] = serialNumbers(1, "24") as [string];
    const project = await createProject({ name: `untrusted-${front}`, program: program(sn, true), front });
    assertOk(await project.up());
    const before = await platformIds([sn]);
    const root = path.join(mkdtempSync(path.join(tmpdir(), "owners-")), "shared");
    mkdirSync(root, { mode: 0o777 });
    chmodSync(root, 0o777); // as another local user could have left it
    const env = { DEVPLATFORM_OWNERSHIP_DIR: root };
    project.setProgram(program(sn, false));
    await control.resetCounters();
    const up = await project.up({ env });
    expect(up.exitCode).not.toBe(0);
    expect(up.output).toContain(`${root} is writable by others (mode 777)`);
    expect(up.output).not.toMatch(/\n\s+at .*\.js:\d+/);
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
    expect(await platformIds([sn])).toEqual(before);
    expect(resourcesOfType(await project.exportStack(), project.token("Device"))).toHaveLength(1);
    // A trusted record lets the same delete go ahead.
    chmodSync(root, 0o700);
    assertOk(await project.up({ env }));
    expect(await platformIds([sn])).toEqual({});
  });

  it("fails the check with the reason and no stack trace when the record cannot be created", async () => {
    const [sn] = serialNumbers(1, "24") as [string];
    const blocker = path.join(mkdtempSync(path.join(tmpdir(), "owners-")), "a-file");
    writeFileSync(blocker, "");
    const project = await createProject({ name: `no-record-${front}`, program: program(sn, true), front });
    await control.resetCounters();
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const preview = await project.preview(
        {},
        { env: { DEVPLATFORM_OWNERSHIP_DIR: path.join(blocker, "owners") } },
      );
      expect(preview.exitCode).not.toBe(0);
      expect(preview.output).toMatch(/one-owner record .* cannot be opened at .*a-file\/owners/);
      expect(preview.output).not.toMatch(/\n\s+at .*\.js:\d+/);
    }
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
    expect(await platformIds([sn])).toEqual({});
  });
});
