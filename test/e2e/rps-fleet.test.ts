/**
 * A batch of RPS records as one RpsFleet (issue #46) on the real Pulumi CLI, through both
 * front-ends — the dynamic resource from a TypeScript program, the plugin from a YAML program — on
 * one stack each: 30 records created by an `up` killed mid-way (SIGKILL at an exact request count,
 * the emulator's hold), `pulumi cancel` and `up` converging with each record once; one URL changed
 * (one write); removals over maxRemovals refused at preview (no write); one serial number in the
 * batch and a DeviceFleet refused at preview in either order; 5 records handed over to a
 * DeviceFleet with takeOverRps in one `up`, killed while the devices are added, then converging:
 * each record deleted, each device once; destroy.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl, type HoldThen } from "../../emulator";
import { serialNumbers } from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import { createPluginProject } from "./support/plugin-toolchain";
import { writesOf } from "./support/platform-writes";
import { assertOk, type PulumiProject } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pluginDir, pluginProjectYaml } from "./support/plugin-toolchain";

interface Batch {
  records: { sn: string; profileUrl: string }[];
  maxRemovals: number;
  /** Serial numbers declared as devices of a DeviceFleet with takeOverRps (none: no fleet). */
  devices: string[];
  /** The fleet depends on the batch (checked after it) instead of the other way round. */
  batchFirst?: boolean;
}

function typescriptProgram({ records, maxRemovals, devices, batchFirst }: Batch): string {
  const fleet = `new devplatform.DeviceFleet("site", { takeOverRps: true, devices: ${JSON.stringify(
    devices.map((sn, i) => ({ sn, name: `site-${i}` })),
  )} }`;
  const batch = `new devplatform.RpsFleet("shipment", { records: ${JSON.stringify(records)}, maxRemovals: ${maxRemovals} }`;
  // By default the batch depends on the fleet: the fleet is checked first, so the batch's check sees
  // the serial numbers handed over (not counted as removals). `batchFirst` turns the order round.
  const declarations =
    devices.length === 0
      ? `const batch = ${batch});`
      : batchFirst
        ? `const batch = ${batch});\n${fleet}, { dependsOn: [batch] });`
        : `const batch = ${batch}, { dependsOn: [${fleet})] });`;
  return `import * as devplatform from "pulumi-devplatform";
${declarations}
export const recordCount = batch.profileUrls.apply((urls) => Object.keys(urls).length);
`;
}

function yamlProgram({ records, maxRemovals, devices, batchFirst }: Batch): string {
  const fleet =
    devices.length === 0
      ? ""
      : `  site:
    type: devplatform:DeviceFleet
    properties:
      takeOverRps: true
      devices:
${devices.map((sn, i) => `        - sn: "${sn}"\n          name: site-${i}\n`).join("")}${
          batchFirst ? "    options:\n      dependsOn:\n        - ${shipment}\n" : ""
        }`;
  return `resources:
${fleet}  shipment:
    type: devplatform:RpsFleet
    properties:
      maxRemovals: ${maxRemovals}
      records:
${records.map(({ sn, profileUrl }) => `        - sn: "${sn}"\n          profileUrl: ${profileUrl}\n`).join("")}${
    devices.length === 0 || batchFirst ? "" : "    options:\n      dependsOn:\n        - ${site}\n"
  }`;
}

// A test that failed between its kill and its release must not leave a hold that stops every
// later test's requests: release what is still set.
afterEach(async () => {
  const control = new EmulatorControl(e2e().emulatorUrl);
  for (const hold of await control.holds()) await control.release(hold.holdId);
});

const FRONT_ENDS = [
  {
    front: "dynamic",
    create: (batch: Batch) => createProject({ name: "rps-fleet", program: typescriptProgram(batch) }),
    write: (project: PulumiProject, batch: Batch) => project.setProgram(typescriptProgram(batch)),
  },
  {
    front: "plugin",
    create: (batch: Batch) =>
      createPluginProject(
        { name: "rps-fleet-yaml", runtime: "yaml", files: {}, yamlProgram: yamlProgram(batch) },
        e2e(),
      ),
    write: (project: PulumiProject, batch: Batch) =>
      writeFileSync(
        path.join(project.dir, "Pulumi.yaml"),
        pluginProjectYaml("rps-fleet-yaml", "yaml", pluginDir(e2e().nodeModules)) + yamlProgram(batch),
      ),
  },
] as const;

describe.each(FRONT_ENDS)("an RpsFleet of 30 records through the $front front-end", ({ create, write }) => {
  let control: EmulatorControl;
  let project: PulumiProject;
  const serials = serialNumbers(30, "AC");
  const url = (sn: string) => `https://rps.example.com/profiles/${sn}`;
  let records = serials.map((sn) => ({ sn, profileUrl: url(sn) }));

  async function writes(step: () => Promise<unknown>): Promise<Record<string, number>> {
    await control.resetCounters();
    await step();
    return writesOf((await control.counters()).byRoute);
  }

  const onPlatform = async () =>
    new Map((await control.state()).rpsRecords.map((r) => [r.sn, r.profileUrl] as const));

  /**
   * Runs an `up` killed (SIGKILL) once `held` requests wait at the hold, checks every process of it
   * ended, releases the held requests as `then` says; returns the requests the platform got.
   */
  async function killedUp(point: { route: string; after: number; held: number; then: HoldThen }) {
    await control.resetCounters();
    const holdId = await control.hold(point.route, point.after, point.then);
    const killed = await project.up({ killWhenHeld: { control, holdId, held: point.held } });
    expect(killed.exitCode, "the up should have been killed").not.toBe(0);
    expect(killed.killed).toBeDefined();
    expect((await control.holds()).find((h) => h.holdId === holdId)).toMatchObject({
      passed: point.after,
      held: point.held,
    });
    expect(await control.release(holdId)).toBe(point.held);
    return writesOf((await control.counters()).byRoute);
  }

  /** The platform holds each of `wanted`'s records once, no record of `devices`, each device once. */
  async function expectEachOnce(
    wanted: readonly { sn: string; profileUrl: string }[],
    devices: readonly string[],
  ) {
    const state = await control.state();
    const ours = new Set(serials);
    expect(
      state.rpsRecords
        .filter((r) => ours.has(r.sn))
        .map((r) => `${r.sn}=${r.profileUrl}`)
        .sort(),
    ).toEqual(wanted.map((r) => `${r.sn}=${r.profileUrl}`).sort());
    expect(
      state.devices
        .filter((d) => ours.has(d.sn ?? ""))
        .map((d) => d.sn)
        .sort(),
    ).toEqual([...devices].sort());
  }

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    project = await create({ records, maxRemovals: 2, devices: [] });
  });

  it("creates the 30 records through an up killed mid-way: each once, the written ones adopted; then no change without a request", async () => {
    // 6 records answered, one more per batch worker (concurrency 16) performed unanswered.
    const atKill = await killedUp({ route: "POST /rps/profile", after: 6, held: 16, then: "perform" });
    expect(atKill).toEqual({ "POST /rps/profile": 22 });
    assertOk(await project.cli(["cancel", "--yes"]));
    let up: Awaited<ReturnType<PulumiProject["up"]>> | undefined;
    expect(await writes(async () => (up = assertOk(await project.up())))).toEqual({ "POST /rps/profile": 8 });
    expect(up?.output).toContain(
      "RpsFleet shipment: adopted 22 records already on the platform without a write",
    );
    await expectEachOnce(records, []);
    await control.resetCounters();
    assertOk(await project.preview({ expectNoChanges: true }));
    expect((await control.counters()).total).toBe(0);
  });

  it("changes one URL with one write, the plan told by serial number", async () => {
    const changed = serials[7] as string;
    records = records.map((r) => (r.sn === changed ? { ...r, profileUrl: `${url(changed)}?v=2` } : r));
    write(project, { records, maxRemovals: 2, devices: [] });
    let up: Awaited<ReturnType<PulumiProject["up"]>> | undefined;
    // The `up` (its preview skipped) tells the plan too: one command instead of two.
    expect(await writes(async () => (up = assertOk(await project.up())))).toEqual({ "POST /rps/profile": 1 });
    expect(up?.changes).toMatchObject({ update: 1 });
    expect(up?.output).toContain(
      `RpsFleet shipment: 1 to change (${changed}: ${url(changed)} → ${url(changed)}?v=2), 29 unchanged`,
    );
    expect((await onPlatform()).get(changed)).toBe(`${url(changed)}?v=2`);
  });

  it("refuses 3 removals over maxRemovals 2 at preview, writing nothing", async () => {
    write(project, { records: records.slice(3), maxRemovals: 2, devices: [] });
    let preview: Awaited<ReturnType<PulumiProject["preview"]>> | undefined;
    expect(await writes(async () => (preview = await project.preview()))).toEqual({});
    expect(preview?.exitCode).not.toBe(0);
    expect(preview?.output).toMatch(
      /RpsFleet shipment would delete 3 RPS records \(.*\), more than maxRemovals 2/,
    );
    expect((await onPlatform()).size).toBeGreaterThanOrEqual(30);
  });

  it("refuses one serial number in the batch and the fleet at preview, whichever is checked first", async () => {
    const shared = serials[3] as string;
    for (const batchFirst of [false, true]) {
      write(project, { records, maxRemovals: 2, devices: [shared], batchFirst });
      let preview: Awaited<ReturnType<PulumiProject["preview"]>> | undefined;
      expect(await writes(async () => (preview = await project.preview()))).toEqual({});
      expect(preview?.exitCode).not.toBe(0);
      expect(preview?.output).toMatch(
        batchFirst
          ? new RegExp(
              `serial number ${shared} is declared by DeviceFleet "site" and by RpsFleet "shipment" \\(as an RPS record\\)`,
            )
          : new RegExp(
              `serial number ${shared} is declared by RpsFleet "shipment" and by DeviceFleet "?site"? \\(as a device\\)`,
            ),
      );
    }
  });

  it("hands 5 records over to a DeviceFleet in one up, killed while the devices are added: each record deleted, each device once", async () => {
    const moving = serials.slice(25);
    write(project, { records: records.slice(0, 25), maxRemovals: 2, devices: moving });
    // The fleet (checked and run first) deleted the 5 records; 2 devices added and answered, 3 added unanswered.
    const atKill = await killedUp({ route: "POST /devices", after: 2, held: 3, then: "perform" });
    expect(writesOf(atKill)).toEqual({ "DELETE /rps/{sn}": 5, "POST /devices": 5 });
    assertOk(await project.cli(["cancel", "--yes"]));
    let up: Awaited<ReturnType<PulumiProject["up"]>> | undefined;
    // The fleet adopts its 5 devices without a write; the batch forgets the 5 records (gone already).
    expect(await writes(async () => (up = assertOk(await project.up())))).toEqual({ "DELETE /rps/{sn}": 5 });
    expect(up?.changes).toMatchObject({ create: 1, update: 1 });
    await expectEachOnce(records.slice(0, 25), moving);
    assertOk(await project.preview({ expectNoChanges: true }));
  });

  it("destroys the batch and the fleet", async () => {
    assertOk(await project.destroy());
    const platform = await onPlatform();
    expect(serials.filter((sn) => platform.has(sn))).toEqual([]);
  });
});
