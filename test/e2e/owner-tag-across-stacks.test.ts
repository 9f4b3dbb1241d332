/**
 * One owner across stacks, on the real CLI through both front-ends: two stacks whose programs
 * declare one serial number (an inventory split by site, with a slip) against one application.
 * Each device a stack adds or adopts carries the owner tag naming that stack; stack B's adoption
 * of stack A's devices is refused naming A, writing nothing, until B's program takes them over;
 * then A, dropping them, deletes nothing (and forgets them), and B's preview and refresh find no
 * change. Before owner tags, B adopted both devices without a write and A's `up` deleted them
 * from under B.
 *
 * Then what people do to stacks: B renamed keeps its devices (one PUT each retags them); a namesake
 * of B on a second backend is refused, naming B's instance; B on another `ownerTag` prefix keeps
 * them, and A on the default prefix is refused; B's destroy deletes them. Before the tag named the
 * stack instance and the state's recorded tag counted as the stack's own, the renamed B's `up`
 * failed (exit 1, 0 writes), the namesake adopted both devices silently (exit 0, 0 writes), and A
 * adopted B's devices of another prefix (exit 0, 2 PUT).
 *
 * A stack removed with `pulumi stack rm --force`, on either front-end: `devplatform export
 * --take-over` names it and writes no owner tag; the exported project (dynamic), or a YAML program on
 * the plugin declaring the exported inventory with `takeOverFrom` the reported stack, retags each
 * device with one PUT, then finds no change and destroys them.
 *
 * A renamed stack's DeviceConfig with `resetOnDelete`, destroyed alone before any `up` retagged its
 * devices, resets them (one POST /tasks, reportInterval back to 600 on both); before its state
 * recorded the owner tag, the reset took the devices' earlier tag for another stack's: exit 0, no
 * write, reportInterval 900 left on both.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { readInventory } from "../../inventory";
import { createProject } from "./support/e2e-project";
import { ownerProgram, type Declared } from "./support/owner-programs";
import { createPluginProject } from "./support/plugin-toolchain";
import { serialNumbers } from "./support/fleet-programs";
import { FRONT_ENDS, type FrontEnd } from "./support/front-ends";
import { assertOk, E2E_CREDENTIALS, PulumiProject, resourcesOfType } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";
import { writesOf } from "./support/platform-writes";
import { instanceOf } from "../../provider/deployment/stack-instance";

let emulator: RunningEmulator;
const run = promisify(execFile);

beforeAll(async () => {
  emulator = await startEmulator({ control: true });
});
afterAll(async () => {
  await emulator.stop();
});

/** The platform's tags of each serial number. */
async function tagsOf(serials: readonly string[]): Promise<Record<string, string[] | undefined>> {
  const devices = (await emulator.control.state()).devices;
  return Object.fromEntries(serials.map((sn) => [sn, devices.find((d) => d.sn === sn)?.tag]));
}

/** Requests and writes of one command, from the emulator's counters. */
async function counted<T>(command: () => Promise<T>) {
  await emulator.control.resetCounters();
  const result = await command();
  const { byRoute } = await emulator.control.counters();
  const requests = Object.entries(byRoute)
    .filter(([route]) => !route.includes("oauth"))
    .reduce((sum, [, n]) => sum + n, 0);
  return { result, requests, writes: writesOf(byRoute) };
}

describe.each(FRONT_ENDS)("two stacks declaring one serial number (%s)", (front: FrontEnd) => {
  const [x, y] = serialNumbers(2) as [string, string];
  let a: PulumiProject;
  let b: PulumiProject;
  /** The owner tag of `project`'s stack `stack`: the instance is its backend's (a file backend here). */
  const markerOf = (project: PulumiProject, name: string, prefix = "pulumi-stack:") =>
    `${prefix}${name}@${instanceOf(`file://${project.stateDir}`)}`;

  const project = (name: string, declared: Declared) =>
    createProject({
      name,
      program: ownerProgram(declared),
      front,
      config: { "devplatform:baseUrl": emulator.url },
    });

  it("stack A's devices carry its owner tag, besides the declared tags", async () => {
    a = await project("site-a", { device: x, fleet: [y] });
    assertOk(await a.up());
    const markerA = markerOf(a, "site-a/dev");
    expect(await tagsOf([x, y])).toEqual({ [x]: ["site", markerA], [y]: [markerA] });
    // Never a diff, never drift.
    assertOk(await a.preview({ expectNoChanges: true }));
    assertOk(await a.refreshExpectingNoChanges());
  });

  it("stack B declaring them is refused, naming stack A, and writes nothing", async () => {
    b = await project("site-b", { device: x, fleet: [y] });
    const { result: up, writes } = await counted(() => b.up());
    expect(up.exitCode).not.toBe(0);
    const output = up.output;
    expect(output).toMatch(/1 managed by another stack will be refused, nothing written to them/);
    expect(output).toMatch(
      new RegExp(`create Device sn=${x} failed: deviceId \\d+ .*managed by stack "site-a/dev"`),
    );
    expect(output).toMatch(
      new RegExp(`adopt ${y}.*managed by stack "site-a/dev".*list ${y} in the fleet's takeOver`),
    );
    expect(writes).toEqual({});
    const markerA = markerOf(a, "site-a/dev");
    expect(await tagsOf([x, y])).toEqual({ [x]: ["site", markerA], [y]: [markerA] });
  });

  it("stack B takes them over when its program says so: one PUT each", async () => {
    // The Device by takeOver: true; the fleet by naming the stack (every device of it at once).
    b.setProgram(
      ownerProgram({ device: x, takeOverDevice: true, fleet: [y], fleetTakeOverFrom: ["site-a/dev"] }),
    );
    const { result, writes } = await counted(() => b.up());
    const up = assertOk(result);
    expect(writes).toEqual({ "PUT /devices": 2 });
    expect(up.output).toMatch(/taken over from stack "site-a\/dev"/);
    const markerB = markerOf(b, "site-b/dev");
    expect(await tagsOf([x, y])).toEqual({ [x]: ["site", markerB], [y]: [markerB] });
  });

  it("stack A dropping them deletes nothing, says why, and forgets them", async () => {
    a.setProgram(ownerProgram({ fleet: [] }));
    const { result, writes, requests } = await counted(() => a.up());
    const up = assertOk(result);
    expect(writes).toEqual({});
    console.log(`${front}: stack A's up dropping 2 devices stack B owns: ${requests} requests, 0 writes`);
    expect(up.output).toMatch(
      new RegExp(`Device sn=${x}: not deleting deviceId \\d+: stack "site-b/dev" manages it now`),
    );
    expect(up.output).toMatch(
      new RegExp(`not deleting ${y} \\(deviceId \\d+\\): stack "site-b/dev" manages it now`),
    );
    const state = await a.exportStack();
    expect(resourcesOfType(state, a.token("Device"))).toEqual([]);
    expect(resourcesOfType(state, a.token("DeviceFleet"))[0]?.outputs?.deviceIds).toEqual({});
    const markerB = markerOf(b, "site-b/dev");
    expect(await tagsOf([x, y])).toEqual({ [x]: ["site", markerB], [y]: [markerB] });
    assertOk(await a.preview({ expectNoChanges: true }));
  });

  it("stack B renamed keeps its devices: its up retags them, one PUT each", async () => {
    // Without the take-over: the devices are B's by what B's state recorded, not by its program's say-so.
    b.setProgram(ownerProgram({ device: x, fleet: [y] }));
    assertOk(await b.cli(["stack", "rename", "prod"]));
    const { result, writes } = await counted(() => b.up());
    console.log(`${front}: renamed stack's up: exit ${result.exitCode}, writes ${JSON.stringify(writes)}`);
    assertOk(result);
    expect(writes).toEqual({ "PUT /devices": 2 });
    const markerB = markerOf(b, "site-b/prod");
    expect(await tagsOf([x, y])).toEqual({ [x]: ["site", markerB], [y]: [markerB] });
    assertOk(await b.preview({ expectNoChanges: true }));
  });

  it("a namesake of stack B on a second backend is refused, naming B's instance, and writes nothing", async () => {
    const namesake = await project("site-b", { device: x, fleet: [y] });
    assertOk(await namesake.cli(["stack", "rename", "prod"]));
    const { result, writes } = await counted(() => namesake.up());
    console.log(`${front}: namesake's up: exit ${result.exitCode}, writes ${JSON.stringify(writes)}`);
    expect(result.exitCode).not.toBe(0);
    expect(writes).toEqual({});
    const instanceB = instanceOf(`file://${b.stateDir}`);
    expect(result.output).toMatch(
      new RegExp(
        `create Device sn=${x} failed: .*managed by stack "site-b/prod@${instanceB}".*same name on another backend`,
      ),
    );
    expect(result.output).toMatch(new RegExp(`adopt ${y}.*managed by stack "site-b/prod@${instanceB}"`));
    const markerB = markerOf(b, "site-b/prod");
    expect(await tagsOf([x, y])).toEqual({ [x]: ["site", markerB], [y]: [markerB] });
    assertOk(await namesake.destroy());
  });

  it("stack B on another ownerTag prefix keeps them; stack A on the default prefix is refused", async () => {
    assertOk(await b.cli(["config", "set", "devplatform:ownerTag", "team-b:"]));
    const retag = await counted(() => b.up());
    assertOk(retag.result);
    expect(retag.writes).toEqual({ "PUT /devices": 2 });
    const markerB = markerOf(b, "site-b/prod", "team-b:");
    expect(await tagsOf([x, y])).toEqual({ [x]: ["site", markerB], [y]: [markerB] });

    a.setProgram(ownerProgram({ device: x, fleet: [y] }));
    const { result, writes } = await counted(() => a.up());
    console.log(
      `${front}: default-prefix stack declaring team-b: devices: exit ${result.exitCode}, writes ${JSON.stringify(writes)}`,
    );
    expect(result.exitCode).not.toBe(0);
    expect(writes).toEqual({});
    expect(result.output).toMatch(new RegExp(`managed by stack "team-b:site-b/prod@`));
    expect(await tagsOf([x, y])).toEqual({ [x]: ["site", markerB], [y]: [markerB] });
  });

  it("stack B then finds no change, and its destroy deletes them", async () => {
    assertOk(await b.preview({ expectNoChanges: true }));
    assertOk(await b.refreshExpectingNoChanges());
    const { writes } = await counted(() => b.destroy());
    expect(writes).toEqual({ "DELETE /devices/{deviceId}": 2 });
    assertOk(await a.destroy());
  });
});

/**
 * The stack that takes over a removed stack's devices: on the dynamic front-end the exported
 * project itself; on the plugin a YAML program (the language is not under test) whose fleet declares
 * the exported inventory's devices with `takeOverFrom` naming the stack the export reported.
 */
async function takingStack(front: FrontEnd, out: string, stack: string): Promise<PulumiProject> {
  const context = { ...e2e(), emulatorUrl: emulator.url };
  if (front === "dynamic") return PulumiProject.open(out, "taken-over", context);
  const devices = readInventory(path.join(out, "inventory.csv"));
  const yamlProgram = [
    "resources:",
    "  site:",
    "    type: devplatform:index:DeviceFleet",
    "    properties:",
    // JSON is YAML: the inventory's entries as they are.
    `      devices: ${JSON.stringify(devices)}`,
    `      takeOverFrom: ${JSON.stringify([stack])}`,
    "",
  ].join("\n");
  return createPluginProject({ name: "taken-over", runtime: "yaml", files: {}, yamlProgram }, context);
}

describe.each(FRONT_ENDS)(
  "a stack removed with `pulumi stack rm --force`, then exported and taken over (%s)",
  (front: FrontEnd) => {
    it("export leaves the owner tags out, names the stack, and the take-over's first up retags each device once", async () => {
      const serials = serialNumbers(3);
      const siteTag = `lost-site-${front}`;
      const lost = await createProject({
        name: "lost-stack",
        program: ownerProgram({ fleet: serials, fleetTags: [siteTag] }),
        front,
        config: { "devplatform:baseUrl": emulator.url },
      });
      assertOk(await lost.up());
      const lostMarker = `pulumi-stack:lost-stack/dev@${instanceOf(`file://${lost.stateDir}`)}`;
      assertOk(await lost.cli(["stack", "rm", "--force", "--yes"]));

      // The exported project is named after its directory: `taken-over` on both front-ends.
      const out = path.join(mkdtempSync(path.join(e2e().workDir, `export-${front}-`)), "taken-over");
      const { stdout } = await run(
        path.join(e2e().nodeModules, ".bin", "devplatform"),
        ["export", "--out", out, "--tag", siteTag, "--take-over"],
        {
          env: {
            ...process.env,
            DEVPLATFORM_BASE_URL: emulator.url,
            DEVPLATFORM_CLIENT_ID: E2E_CREDENTIALS.clientId,
            DEVPLATFORM_CLIENT_SECRET: E2E_CREDENTIALS.clientSecret,
          },
        },
      );
      const stack = lostMarker.slice("pulumi-stack:".length);
      expect(stdout).toContain(`3 devices carry the owner tag of another stack: ${stack} (3)`);
      expect(readFileSync(path.join(out, "inventory.csv"), "utf8")).not.toContain("pulumi-stack:");
      const taker = await takingStack(front, out, stack);
      const preview = await taker.preview();
      console.log(`${front}: export after stack rm --force: preview exit ${preview.exitCode}`);
      assertOk(preview);
      const { result, writes } = await counted(() => taker.up());
      console.log(`${front}: take-over up exit ${result.exitCode}, writes ${JSON.stringify(writes)}`);
      assertOk(result);
      expect(writes).toEqual({ "PUT /devices": 3 });
      const marker = `pulumi-stack:taken-over/dev@${instanceOf(`file://${taker.stateDir}`)}`;
      expect(Object.values(await tagsOf(serials))).toEqual(serials.map(() => [siteTag, marker]));
      assertOk(await taker.preview({ expectNoChanges: true }));
      assertOk(await taker.refreshExpectingNoChanges());
      const destroyed = await counted(() => taker.destroy());
      expect(destroyed.writes).toEqual({ "DELETE /devices/{deviceId}": 3 });
    });
  },
);

describe.each(FRONT_ENDS)("a renamed stack's DeviceConfig with resetOnDelete (%s)", (front: FrontEnd) => {
  it("destroying the configuration alone, before any up, resets its devices' values", async () => {
    const devices = serialNumbers(2).map((sn, i) => ({ sn, name: `reset-${i}` }));
    const project = await createProject({
      name: "reset-renamed",
      program: [
        `import * as devplatform from "pulumi-devplatform";`,
        `const fleet = new devplatform.DeviceFleet("site", { devices: ${JSON.stringify(devices)} });`,
        `new devplatform.DeviceConfig("settings", {`,
        `  deviceIds: fleet.deviceIds.apply((ids) => Object.values(ids)),`,
        `  properties: { reportInterval: 900 },`,
        `  resetOnDelete: true,`,
        `});`,
        "",
      ].join("\n"),
      front,
      config: { "devplatform:baseUrl": emulator.url },
    });
    assertOk(await project.up());
    assertOk(await project.cli(["stack", "rename", "prod"]));
    const [config] = resourcesOfType(await project.exportStack(), project.token("DeviceConfig"));
    const { result, writes } = await counted(() =>
      project.cli(["destroy", "--yes", "--skip-preview", "--target", config?.urn ?? ""]),
    );
    // Tasks apply on the emulator's timer: wait for the condition, not for a duration.
    const settled = async () => {
      for (;;) {
        const state = await emulator.control.state();
        if (!state.tasks.some((t) => t.status === "PENDING")) return state;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const values = (await settled()).devices
      .filter((d) => devices.some(({ sn }) => sn === d.sn))
      .map((d) => d.properties.reportInterval);
    console.log(
      `${front}: renamed stack's destroy of its DeviceConfig: exit ${result.exitCode}, writes ${JSON.stringify(writes)}, reportInterval ${JSON.stringify(values)}`,
    );
    assertOk(result);
    // The TSL default, on both devices: the devices still carry the tag the stack wrote before its rename.
    expect(values).toEqual([600, 600]);
    expect(writes).toEqual({ "POST /tasks": 1 });
    const destroyed = await counted(() => project.destroy());
    expect(destroyed.writes).toEqual({ "DELETE /devices/{deviceId}": 2 });
  });
});
