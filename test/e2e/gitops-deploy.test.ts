/**
 * The example fleet repository's deploy workflow (examples/fleet-repo/.github/workflows/deploy.yml)
 * run by a real GitHub Actions runner (nektos/act, steps on this host) against the shared S3 backend
 * (moto's server), the emulator, and a stand-in for GitHub's REST API (GitHubStandIn: the test's, not
 * GitHub). On merge, both stacks deploy in parallel. A run killed mid-`up` (act, its steps, `pulumi`
 * and its plugins, all at once, as a lost runner) leaves the stack's lock: the next run reports it
 * and keeps it while GitHub says the run that left it is in progress; once GitHub says that run has
 * completed, the next run removes the lock and deploys, and the platform holds every declared device
 * once, the ones the killed run added without recording included.
 */
import { appendFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { e2e } from "./support/e2e-context";
import { writesOf } from "./support/platform-writes";
import { GitOpsFixture, pushEvent } from "./support/gitops/gitops-fixture";

const FIRST = ["240000A20001", "240000A20002", "240000A20003", "240000A20101", "240000A20102"];
/** Devices a merge adds to site-a, the merge whose deploy is killed. */
const ADDED = ["240000A20004", "240000A20005", "240000A20006", "240000A20007"];
/** site-b's job of a run (the second of the matrix) has ended well. */
const SITE_B_DONE = /\[fleet deploy\/up-2\]\s+✅\s+Success - Main Up/u;
const RUN_41 = "https://github.com/acme/fleet-repo/actions/runs/41/attempts/1";

describe("deploy.yml on a merge, with act", () => {
  let fixture: GitOpsFixture;
  let control: EmulatorControl;

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    fixture = await GitOpsFixture.start("fleet");
  });
  afterAll(async () => fixture?.stop());

  const platformSerials = async () => (await control.state()).devices.map((d) => d.sn).sort();
  const siteALocks = () => fixture.backend.list(".pulumi/locks/organization/fleet/site-a/");

  it("deploys both stacks in parallel, each once", async () => {
    const result = await fixture.run("push", "deploy.yml", pushEvent(), 40);
    expect(result.jobs, result.output).toEqual({ "up-1": "succeeded", "up-2": "succeeded" });
    expect(await platformSerials()).toEqual(FIRST);
    expect(fixture.pulumi(["stack", "tag", "get", "devplatform:deploy-run", "--stack", "site-a"])).toMatch(
      /^run=40 attempt=1 host=\S+ started=\d+$/m,
    );
    expect(await siteALocks()).toEqual([]);
  });

  it("a run killed mid-up leaves the stack's lock: the next run reports it and keeps it while GitHub says that run is in progress", async () => {
    appendFileSync(
      path.join(fixture.repo.dir, "fleet/inventories/site-a.csv"),
      ADDED.map((sn) => `${sn},a-new-${sn.slice(-2)},site-a,building-a\n`).join(""),
    );
    fixture.repo.commit("site-a: four more devices");
    // The first add passes, the other three wait at the hold: the whole job is killed with three
    // adds in flight (performed by the platform afterwards, their answers never heard).
    const holdId = await control.hold("POST /devices", 1, "perform");
    const killed = await fixture.run("push", "deploy.yml", pushEvent(), 41, {
      point: { control, holdId, held: 3 },
      afterOutput: SITE_B_DONE,
    });
    expect(killed.killed, killed.output).toBe(true);
    expect(await control.release(holdId)).toBe(3);
    expect(await platformSerials()).toEqual([...FIRST, ...ADDED].sort());
    expect(await siteALocks()).toHaveLength(1);

    fixture.github.runAttempts.set("41/1", { status: "in_progress", conclusion: null });
    await control.resetCounters();
    const asked = fixture.github.requests.length;
    const blocked = await fixture.run("push", "deploy.yml", pushEvent(), 42);
    expect(blocked.jobs, blocked.output).toEqual({ "up-1": "failed", "up-2": "succeeded" });
    expect(blocked.output).toContain(
      `site-a is locked and the lock stays: the run that holds it, ${RUN_41}, has not ended (GitHub reports: in_progress none)`,
    );
    expect(blocked.output).toContain("remove the lock with `pulumi cancel --stack site-a`");
    expect(fixture.github.requests.slice(asked)).toEqual([
      {
        method: "GET",
        path: "/repos/acme/fleet-repo/actions/runs/41/attempts/1",
        query: {},
        body: undefined,
        authorization: "Bearer stand-in-token",
      },
    ]);
    expect(await siteALocks()).toHaveLength(1);
    // The stack still names the run that holds its lock, for the next run to ask about.
    expect(fixture.pulumi(["stack", "tag", "get", "devplatform:deploy-run", "--stack", "site-a"])).toMatch(
      /^run=41 /,
    );
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
  });

  it("once GitHub says the killed run has completed, the next run removes its lock and deploys: nothing lost, nothing twice", async () => {
    fixture.github.runAttempts.set("41/1", { status: "completed", conclusion: "cancelled" });
    await control.resetCounters();
    const result = await fixture.run("push", "deploy.yml", pushEvent(), 43);
    expect(result.jobs, result.output).toEqual({ "up-1": "succeeded", "up-2": "succeeded" });
    expect(result.output).toContain(`was left by ${RUN_41}, which has ended (cancelled)`);
    expect(await siteALocks()).toEqual([]);
    // Every declared device once; the four the killed run added are adopted, none added again.
    const devices = (await control.state()).devices;
    expect(devices.map((d) => d.sn).sort()).toEqual([...FIRST, ...ADDED].sort());
    expect(writesOf((await control.counters()).byRoute)["POST /devices"]).toBeUndefined();
    const recorded = JSON.parse(
      fixture.pulumi(["stack", "output", "deviceIds", "--json", "--show-secrets", "--stack", "site-a"]),
    ) as Record<string, string>;
    expect(recorded).toEqual(
      Object.fromEntries(devices.filter((d) => d.project === "site-a").map((d) => [d.sn, d.deviceId])),
    );
  });
});
