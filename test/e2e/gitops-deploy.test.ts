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
 * the platform then holds every declared device once, the ones the killed run added included (the
 * killed run's re-run, its attempt 2, does so). The repository is a fresh copy set up by following its
 * README as written (GitOpsFixture); `FLEET_DIR` is left unset (`fleet`, the default), and the
 * TypeScript program is type-checked at every run. preview.yml and drift.yml run on it too: each
 * serial number under its category in the comment, and a drift issue already open is updated.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { e2e } from "./support/e2e-context";
import { writesOf } from "./support/platform-writes";
import { dispatchEvent, GitOpsFixture, pullRequestEvent, pushEvent } from "./support/gitops/gitops-fixture";
import { serials } from "./support/gitops/comment-sections";
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
  /** What the stand-in received since request `since`, as sorted `METHOD path?query` (jobs run in parallel). */
  const received = (since: number) =>
    fixture.github.requests
      .slice(since)
      .map((r) => {
        const query = new URLSearchParams(Object.entries(r.query).sort()).toString();
        return `${r.method} ${r.path.replace("/repos/acme/fleet-repo", "")}${query ? `?${query}` : ""}`;
      })
      .sort();

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

  it("once GitHub says the killed run has ended and its lease has expired, its re-run removes its lock and deploys: nothing lost, nothing twice", async () => {
    fixture.github.runAttempts.set("41/1", { status: "completed", conclusion: "cancelled" });
    await control.resetCounters();
    const asked = fixture.github.requests.length;
    // The killed run re-run (its attempt 2, as the error advises): it asks about attempt 1.
    const result = await fixture.run("push", "deploy.yml", pushEvent(), { id: 41, attempt: 2 });
    expect(result.exitCode, result.output).toBe(0);
    expect(result.jobs, result.output).toEqual(ALL_DEPLOYED);
    expect(result.output).toContain(
      `was left by ${RUN_41}, which has ended (cancelled) and whose lease has expired`,
    );
    expect(fixture.github.requests.slice(asked).map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /repos/acme/fleet-repo/actions/runs/41/attempts/1",
    ]);
    expect(deployRun("site-a")).toMatch(/^run=41 attempt=2 /m);
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
  it("preview.yml and drift.yml on the TypeScript program: type-checked, each serial number under its category; an open drift issue is updated", async () => {
    fixture.repo.checkout("ts-change", true);
    const siteA = readFileSync(inventory("site-a"), "utf8");
    writeFileSync(
      inventory("site-a"),
      siteA
        .replace("a-lobby-temperature", "a-entrance-temperature")
        .replace(/^240000A20007,.*\n/mu, "240000A20008,a-new-08,site-a,building-a\n"),
    );
    fixture.repo.commit("site-a: rename the lobby sensor, swap device 07 for 08");
    fixture.github.openPullRequest(8, "site-a: rename the lobby sensor, swap device 07 for 08");
    await control.resetCounters();
    let since = fixture.github.requests.length;
    const preview = await fixture.run("pull_request", "preview.yml", pullRequestEvent(8), 45);
    fixture.repo.checkout("main");
    expect(preview.exitCode, preview.output).toBe(0);
    expect(preview.jobs, preview.output).toEqual({
      "preview-1": "succeeded",
      "preview-2": "succeeded",
      "fleet preview verdict": "succeeded",
    });
    // `tsc --noEmit` ran on the program in each job (FLEET_DIR unset: `fleet`, the default).
    expect(preview.output.match(/✅\s+Success - Main Type-check the program/gu)).toHaveLength(2);
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
    expect(received(since)).toEqual([
      "GET /issues/8/comments?per_page=100",
      "GET /issues/8/comments?per_page=100",
      "POST /issues/8/comments",
      "POST /issues/8/comments",
    ]);
    const comment = (stack: string) =>
      fixture.github.issues.get(8)?.comments.find((c) => c.body.includes(`devplatform-summary:${stack} `))
        ?.body;
    expect(serials(comment("site-a"), "To remove")).toEqual(["240000A20007"]);
    expect(serials(comment("site-a"), "To add")).toEqual(["240000A20008"]);
    expect(serials(comment("site-a"), "To update")).toEqual(["240000A20001"]);
    expect(comment("site-a")).toContain("> [!CAUTION]\n> **1 device will be removed**");
    expect(comment("site-b")).not.toContain("removed**");

    // main, as deployed: site-a's device renamed by hand, its drift issue open from an earlier check.
    const issue = fixture.github.addIssue({
      number: 20,
      title: "Drift in stack site-a",
      body: "<!-- devplatform-drift:site-a -->\nan earlier drift",
      labels: ["drift"],
    });
    const device = (await control.state()).devices.find((d) => d.sn === "240000A20002");
    if (!device) throw new Error("site-a's device is not on the platform");
    await control.changeDevice(device.deviceId, { name: "renamed-by-hand" });
    since = fixture.github.requests.length;
    const drift = await fixture.run("schedule", "drift.yml", {}, 46);
    expect(drift.exitCode, drift.output).toBe(0);
    expect(drift.jobs, drift.output).toEqual({ "drift-1": "succeeded", "drift-2": "succeeded" });
    const open = "GET /issues?labels=drift&per_page=100&state=open";
    expect(received(since)).toEqual([open, open, "PATCH /issues/20"]);
    expect(issue).toMatchObject({ state: "open", title: "Drift in stack site-a" });
    expect(issue.body).toContain("240000A20002");
    expect(issue.body).toContain("renamed-by-hand");
    expect([...fixture.github.issues.values()].filter((i) => i.labels.includes("drift"))).toHaveLength(1);
  });
});
