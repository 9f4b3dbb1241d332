/**
 * One owner for RPS records, on the real CLI: renaming the resources of two RpsProfiles without an
 * alias creates the new resources (which adopt the records with no write) and deletes the old ones,
 * whose deletes must leave the records alone: 0 DELETE on /rps, the records still there, preview and
 * refresh clean. A record the program stops declaring is still deleted.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { serialNumbers } from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import { FRONT_ENDS } from "./support/front-ends";
import { assertOk, resourcesOfType, type PulumiProject } from "./support/pulumi-project";
import { writesOf } from "./support/platform-writes";
import { e2e } from "./support/e2e-context";

/** A program of RpsProfiles: `[resource name, sn]` pairs. */
function rpsProgram(records: [string, string][]): string {
  return [
    `import * as devplatform from "pulumi-devplatform";`,
    ...records.map(
      ([name, sn]) =>
        `new devplatform.RpsProfile(${JSON.stringify(name)}, { sn: ${JSON.stringify(sn)}, profileUrl: ${JSON.stringify(`https://rps.example.com/profiles/${sn}`)} });`,
    ),
  ].join("\n");
}

describe.each(FRONT_ENDS)("renaming RpsProfile resources without an alias (%s)", (front) => {
  let control: EmulatorControl;
  let project: PulumiProject;
  let serials: string[];

  async function recordsOnPlatform(): Promise<string[]> {
    return (await control.state()).rpsRecords
      .filter((r) => serials.includes(r.sn))
      .map((r) => r.sn)
      .sort();
  }

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    serials = serialNumbers(3, "AC");
    project = await createProject({
      name: `rps-rename-${front}`,
      program: rpsProgram(serials.map((sn, i) => [`profile-${i}`, sn])),
      front,
    });
    assertOk(await project.up());
    expect(await recordsOnPlatform()).toEqual([...serials].sort());
  });

  it("keeps the records: no DELETE on /rps, adopted by the new resources, preview and refresh clean", async () => {
    // Two resources renamed (from an index to the serial number, as the examples name them).
    project.setProgram(rpsProgram(serials.map((sn, i) => [i < 2 ? sn : `profile-${i}`, sn])));
    await control.resetCounters();
    const up = assertOk(await project.up());
    const { byRoute, total } = await control.counters();
    expect(up.changes).toMatchObject({ create: 2, delete: 2 });
    expect(writesOf(byRoute)).toEqual({});
    // The figure of docs/guides/reliability.md: 1 token, 1 listing of the records.
    expect(total).toBe(2);
    const said = (pattern: RegExp) => up.diagnostics.filter((d) => pattern.test(d.message)).length;
    expect(
      said(/not deleting the RPS record of \w+, which another RpsProfile resource of this deployment/),
    ).toBe(2);
    expect(await recordsOnPlatform()).toEqual([...serials].sort());
    const inState = resourcesOfType(await project.exportStack(), project.token("RpsProfile"));
    expect(inState.map((r) => r.id).sort()).toEqual([...serials].sort());
    assertOk(await project.preview({ expectNoChanges: true }));
    assertOk(await project.refreshExpectingNoChanges());
    console.log(`${front}: renaming 2 RpsProfile resources: ${JSON.stringify(byRoute)}, 0 DELETE`);
  });

  it("still deletes a record the program no longer declares, and destroy deletes the rest", async () => {
    project.setProgram(rpsProgram([[serials[0] as string, serials[0] as string]]));
    await control.resetCounters();
    assertOk(await project.up());
    expect(writesOf((await control.counters()).byRoute)).toEqual({ "DELETE /rps/{sn}": 2 });
    expect(await recordsOnPlatform()).toEqual([serials[0]]);
    assertOk(await project.destroy());
    expect(await recordsOnPlatform()).toEqual([]);
  });
});
