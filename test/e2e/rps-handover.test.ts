/**
 * The documented hand-over from RPS to platform management, in one `up`: the RpsProfile is
 * removed and a Device with `takeOverRps` is added for the same serial number.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { fleetProgram, serialNumbers } from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import { assertOk, type PulumiProject } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

describe("RPS hand-over", () => {
  let control: EmulatorControl;
  let project: PulumiProject;
  const [staged, blocked] = serialNumbers(2, "AC") as [string, string];
  const profileUrl = `https://rps.example.com/profiles/${staged}`;

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    project = await createProject({
      name: "handover",
      program: fleetProgram(
        [],
        [
          { sn: staged, profileUrl },
          { sn: blocked, profileUrl },
        ],
      ),
    });
  });

  it("stages devices with RPS records", async () => {
    assertOk(await project.up());
    const { rpsRecords } = await control.state();
    expect(rpsRecords.find((r) => r.sn === staged)?.profileUrl).toBe(profileUrl);
    expect(rpsRecords.find((r) => r.sn === blocked)?.profileUrl).toBe(profileUrl);
  });

  it("updates the profile URL in place", async () => {
    const moved = `${profileUrl}?v=2`;
    project.setProgram(
      fleetProgram(
        [],
        [
          { sn: staged, profileUrl: moved },
          { sn: blocked, profileUrl },
        ],
      ),
    );
    const up = assertOk(await project.up());
    expect(up.changes).toMatchObject({ update: 1 });
    const { rpsRecords } = await control.state();
    expect(rpsRecords.find((r) => r.sn === staged)?.profileUrl).toBe(moved);
  });

  it("refuses a device whose serial number has an RPS record, naming the conflict", async () => {
    project.setProgram(
      fleetProgram(
        [{ name: "blocked", sn: blocked }],
        [
          { sn: staged, profileUrl: `${profileUrl}?v=2` },
          { sn: blocked, profileUrl },
        ],
      ),
    );
    const up = await project.up();
    expect(up.exitCode).not.toBe(0);
    expect(up.output).toMatch(
      new RegExp(`create Device sn=${blocked} failed: .*HTTP 409 rps_record_exists.*requestId`),
    );
  });

  it("hands the device over to platform management in one up", async () => {
    project.setProgram(fleetProgram([{ name: "handed-over", sn: staged, takeOverRps: true }]));
    const up = assertOk(await project.up());
    expect(up.changes).toMatchObject({ create: 1, delete: 2 });
    const state = await control.state();
    expect(state.rpsRecords.find((r) => r.sn === staged || r.sn === blocked)).toBeUndefined();
    expect(state.devices.filter((d) => d.sn === staged)).toHaveLength(1);
    assertOk(await project.preview({ expectNoChanges: true }));
    assertOk(await project.destroy());
  });
});
