/**
 * A batch of RPS records as one RpsFleet (issue #46) on the real Pulumi CLI, through both
 * front-ends — the dynamic resource from a TypeScript program, the plugin from a YAML program — on
 * one stack each: 30 records created; one URL changed (one write); removals over maxRemovals refused
 * at preview (no write); 5 records handed over to a DeviceFleet with takeOverRps in one `up`, the
 * records deleted and the devices added; destroy.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
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
}

function typescriptProgram({ records, maxRemovals, devices }: Batch): string {
  const fleet =
    devices.length === 0
      ? "const dependsOn: devplatform.DeviceFleet[] = [];"
      : `const dependsOn = [new devplatform.DeviceFleet("site", { takeOverRps: true, devices: ${JSON.stringify(
          devices.map((sn, i) => ({ sn, name: `site-${i}` })),
        )} })];`;
  // The batch depends on the fleet: the fleet is checked first, so the batch's check sees the
  // serial numbers handed over (not counted as removals).
  return `import * as devplatform from "pulumi-devplatform";
${fleet}
const batch = new devplatform.RpsFleet("shipment", { records: ${JSON.stringify(records)}, maxRemovals: ${maxRemovals} }, { dependsOn });
export const recordCount = batch.profileUrls.apply((urls) => Object.keys(urls).length);
`;
}

function yamlProgram({ records, maxRemovals, devices }: Batch): string {
  const fleet =
    devices.length === 0
      ? ""
      : `  site:
    type: devplatform:DeviceFleet
    properties:
      takeOverRps: true
      devices:
${devices.map((sn, i) => `        - sn: "${sn}"\n          name: site-${i}\n`).join("")}`;
  return `resources:
${fleet}  shipment:
    type: devplatform:RpsFleet
    properties:
      maxRemovals: ${maxRemovals}
      records:
${records.map(({ sn, profileUrl }) => `        - sn: "${sn}"\n          profileUrl: ${profileUrl}\n`).join("")}${
    devices.length === 0 ? "" : "    options:\n      dependsOn:\n        - ${site}\n"
  }`;
}

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

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    project = await create({ records, maxRemovals: 2, devices: [] });
  });

  it("creates the 30 records, then previews no change without a request", async () => {
    expect(await writes(async () => assertOk(await project.up()))).toEqual({ "POST /rps/profile": 30 });
    const platform = await onPlatform();
    expect(serials.filter((sn) => platform.get(sn) === url(sn))).toHaveLength(30);
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

  it("hands 5 records over to a DeviceFleet in one up: records deleted, devices added, not counted as removals", async () => {
    const moving = serials.slice(25);
    write(project, { records: records.slice(0, 25), maxRemovals: 2, devices: moving });
    const up = assertOk(await project.up());
    expect(up.changes).toMatchObject({ create: 1, update: 1 });
    const platform = await onPlatform();
    expect(moving.filter((sn) => platform.has(sn))).toEqual([]);
    expect(serials.slice(0, 25).filter((sn) => platform.has(sn))).toHaveLength(25);
    const devices = (await control.state()).devices.filter((d) => moving.includes(d.sn ?? ""));
    expect(devices).toHaveLength(5);
    assertOk(await project.preview({ expectNoChanges: true }));
  });

  it("destroys the batch and the fleet", async () => {
    assertOk(await project.destroy());
    const platform = await onPlatform();
    expect(serials.filter((sn) => platform.has(sn))).toEqual([]);
  });
});
