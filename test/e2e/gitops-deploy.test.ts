/**
 * The example fleet repository's deploy workflow (examples/fleet-repo/.github/workflows/deploy.yml)
 * run by a real GitHub Actions runner (nektos/act, steps on this host) against the shared S3 backend
 * (moto's server), the emulator, and a stand-in for GitHub's REST API (GitHubStandIn: the test's, not
 * GitHub). On merge, both stacks deploy in parallel; a run dispatched from another branch is refused
 * before any job touches a secret; the team's policy pack runs at the `up`. Each `up` keeps a lease
 * beside its stack's lock (ci/deploy-stack.sh): while its holder is alive, no run removes its lock,
 * even when GitHub says its run has ended; a run killed mid-`up` (act, its steps, `pulumi` and its
 * plugins, all at once, as a lost runner) leaves the lock, which the next run keeps while GitHub
 * says that run is in progress, and removes once GitHub says it ended and its lease has expired:
 * the platform then holds every declared device once, the ones the killed run added included.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { e2e } from "./support/e2e-context";
import { writesOf } from "./support/platform-writes";
import { dispatchEvent, GitOpsFixture, pushEvent } from "./support/gitops/gitops-fixture";
import type { ActResult } from "./support/gitops/act-runner";

const FIRST = ["240000A20001", "240000A20002", "240000A20003", "240000A20101", "240000A20102"];
/** Devices a merge adds to site-a, the merge whose deploy is killed. */
const ADDED = ["240000A20004", "240000A20005", "240000A20006", "240000A20007"];
/** site-b's job of a run (the second of the matrix) has ended well. */
const SITE_B_DONE = /\[fleet deploy\/up-2\s*\]\s+✅\s+Success - Main Up/u;
const RUN_41 = "https://github.com/acme/fleet-repo/actions/runs/41/attempts/1";
const ALL_DEPLOYED = { "main-only": "succeeded", "up-1": "succeeded", "up-2": "succeeded" };

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
  const deployRun = (stack: string) =>
    fixture.pulumi(["stack", "tag", "get", "devplatform:deploy-run", "--stack", stack]);
  const inventory = (stack: string) => path.join(fixture.repo.dir, `fleet/inventories/${stack}.csv`);

  it("deploys both stacks in parallel, each once", async () => {
    const result = await fixture.run("push", "deploy.yml", pushEvent(), 40);
    expect(result.exitCode, result.output).toBe(0);
    expect(result.jobs, result.output).toEqual(ALL_DEPLOYED);
    expect(await platformSerials()).toEqual(FIRST);
    expect(deployRun("site-a")).toMatch(
      /^run=40 attempt=1 host=\S+ started=\d+ holder=[0-9a-f]{16} renewal=\d+$/m,
    );
    expect(await siteALocks()).toEqual([]);
  });

  it("a run dispatched from a branch other than main is refused with a clear message, before any job holds a secret: nothing written", async () => {
    fixture.repo.checkout("unreviewed", true);
    appendFileSync(inventory("site-a"), "240000A20099,a-unreviewed,site-a,building-a\n");
    fixture.repo.commit("site-a: a device nobody reviewed");
    await control.resetCounters();
    const asked = fixture.github.requests.length;
    const result = await fixture.run("workflow_dispatch", "deploy.yml", dispatchEvent("unreviewed"), 45);
    fixture.repo.checkout("main");
    expect(result.exitCode, result.output).not.toBe(0);
    // The `up` jobs never started (skipped: act prints nothing of them).
    expect(result.jobs, result.output).toEqual({ "main-only": "failed" });
    expect(result.output).toContain(
      "This run is for refs/heads/unreviewed. Only main, reviewed and merged, is deployed",
    );
    expect((await control.counters()).byRoute).toEqual({});
    expect(fixture.github.requests.length).toBe(asked);
    expect(await platformSerials()).toEqual(FIRST);
  });

  it("while a holder's up runs, its lock stays even when GitHub says its run has ended: the holder renews its lease", async () => {
    appendFileSync(
      inventory("site-a"),
      ADDED.map((sn) => `${sn},a-new-${sn.slice(-2)},site-a,building-a\n`).join(""),
    );
    fixture.repo.commit("site-a: four more devices");
    // The first add passes, the other three wait at the hold: run 41's site-a `up` is alive, held.
    const holdId = await control.hold("POST /devices", 1, "perform");
    let siteBDone = false;
    let secondDone = false;
    const holder = fixture.run("push", "deploy.yml", pushEvent(), 41, {
      point: { control, holdId, held: 3 },
      watch: (output) => (siteBDone ||= SITE_B_DONE.test(output)),
      when: () => secondDone,
    });
    await control.waitUntilHeld(holdId, 3);
    while (!siteBDone) await new Promise((resolve) => setTimeout(resolve, 100));
    // GitHub answers "completed" for a run whose process goes on (a runner that lost its connection).
    fixture.github.runAttempts.set("41/1", { status: "completed", conclusion: "failure" });
    const asked = fixture.github.requests.length;
    let second: ActResult;
    try {
      second = await fixture.run("push", "deploy.yml", pushEvent(), 42);
    } finally {
      secondDone = true;
    }
    expect(second.exitCode, second.output).not.toBe(0);
    expect(second.jobs, second.output).toEqual({ ...ALL_DEPLOYED, "up-1": "failed" });
    expect(second.output).toContain(
      `site-a is locked and the lock stays: the run that holds it, ${RUN_41}, is reported ended by GitHub (failure) but its lease was renewed while this run waited`,
    );
    expect(fixture.github.requests.slice(asked).map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /repos/acme/fleet-repo/actions/runs/41/attempts/1",
    ]);
    expect(await siteALocks()).toHaveLength(1);
    expect(deployRun("site-a")).toMatch(/^run=41 /);

    // Now the holder dies (the whole job at once, three adds in flight, performed afterwards).
    const killed = await holder;
    expect(killed.killed, killed.output).toBe(true);
    // The three held adds, and the provider's retries of them once its 30 s request timeout
    // passed while run 42 ran (how many depends on how long that took): the platform holds each
    // device once whatever their number.
    expect(await control.release(holdId)).toBeGreaterThanOrEqual(3);
    expect(await platformSerials()).toEqual([...FIRST, ...ADDED].sort());
    expect(await siteALocks()).toHaveLength(1);
  });

  it("a killed run's lock stays while GitHub says that run is in progress; the pack refuses at the up what the policy forbids", async () => {
    fixture.github.runAttempts.set("41/1", { status: "in_progress", conclusion: null });
    // site-b: a device without a project, which policy-config.json forbids (mandatory).
    const siteB = readFileSync(inventory("site-b"), "utf8");
    appendFileSync(inventory("site-b"), "240000A20103,b-no-project,,building-b\n");
    fixture.repo.commit("site-b: a device without a project");
    await control.resetCounters();
    const asked = fixture.github.requests.length;
    const blocked = await fixture.run("push", "deploy.yml", pushEvent(), 43);
    writeFileSync(inventory("site-b"), siteB);
    fixture.repo.commit("site-b: revert the device without a project");
    expect(blocked.exitCode, blocked.output).not.toBe(0);
    expect(blocked.jobs, blocked.output).toEqual({ ...ALL_DEPLOYED, "up-1": "failed", "up-2": "failed" });
    expect(blocked.output).toContain(
      `site-a is locked and the lock stays: the run that holds it, ${RUN_41}, has not ended (GitHub reports: in_progress none)`,
    );
    expect(blocked.output).toContain("remove the lock with `pulumi cancel --stack site-a`");
    expect(blocked.output).toMatch(/mandatory.*devplatform-project-and-tags/u);
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
    expect(deployRun("site-a")).toMatch(/^run=41 /);
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
    expect(await platformSerials()).not.toContain("240000A20103");
  });

  it("once GitHub says the killed run has ended and its lease has expired, the next run removes its lock and deploys: nothing lost, nothing twice", async () => {
    fixture.github.runAttempts.set("41/1", { status: "completed", conclusion: "cancelled" });
    await control.resetCounters();
    const result = await fixture.run("push", "deploy.yml", pushEvent(), 44);
    expect(result.exitCode, result.output).toBe(0);
    expect(result.jobs, result.output).toEqual(ALL_DEPLOYED);
    expect(result.output).toContain(
      `was left by ${RUN_41}, which has ended (cancelled) and whose lease has expired`,
    );
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
