/**
 * The example fleet repository's review and drift workflows (examples/fleet-repo/.github/workflows/
 * preview.yml and drift.yml), on the provider plugin's program (fleet-yaml), run by a real GitHub
 * Actions runner (nektos/act, steps on this host) against the shared S3 backend (moto's server), the
 * emulator, and a stand-in for GitHub's REST API (GitHubStandIn: the test's, not GitHub), which
 * records the comments, issues and labels the workflows' commands (`devplatform pr-summary`,
 * `pr-comment`, `drift-issue`) send. preview.yml runs the package's policy pack on every preview, as
 * the example repository ships it (configured by its policy-config.json): a push that adds a device
 * without a project fails its stack's preview, and the stack's comment names the policy and the
 * fleet, from the real CLI's policyEvents. Each request to GitHub is checked with its query string,
 * and each serial number under the comment's category (removals first, under the removal banner).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { e2e } from "./support/e2e-context";
import { GitOpsFixture, pullRequestEvent, pushEvent } from "./support/gitops/gitops-fixture";
import { writesOf } from "./support/platform-writes";
import { serials } from "./support/gitops/comment-sections";

const PR = 7;
const REPO_PATH = "/repos/acme/fleet-repo";
const marker = (stack: string) => `<!-- devplatform-summary:${stack} -->`;
/** preview.yml's job that always runs and reports: the branch's required check. */
const VERDICT = "fleet preview verdict";
/** drift-issue's look-up of a stack's open drift issue (first page). */
const OPEN_DRIFT_ISSUES = "GET /issues?labels=drift&per_page=100&state=open";

describe("preview.yml and drift.yml on the plugin's program, with act", () => {
  let fixture: GitOpsFixture;
  let control: EmulatorControl;

  beforeAll(async () => {
    control = new EmulatorControl(e2e().emulatorUrl);
    fixture = await GitOpsFixture.start("fleet-yaml");
    // main deployed by deploy.yml on this program too (its lock handling is gitops-deploy.test.ts's).
    const deployed = await fixture.run("push", "deploy.yml", pushEvent(), 1);
    if (deployed.exitCode !== 0) throw new Error(`deploy.yml failed on fleet-yaml:\n${deployed.output}`);
    fixture.github.openPullRequest(PR, "site-a: rename a controller, add a light, retire the yard light");
  });
  afterAll(async () => fixture?.stop());

  const siteA = () => path.join(fixture.repo.dir, "fleet-yaml/Pulumi.site-a.yaml");
  const prComments = () => fixture.github.issues.get(PR)?.comments ?? [];
  /** What the stand-in received since request `since`, as sorted `METHOD path?query` (jobs run in parallel). */
  const receivedSince = (since: number) =>
    fixture.github.requests
      .slice(since)
      .map((r) => {
        const query = new URLSearchParams(Object.entries(r.query).sort()).toString();
        return `${r.method} ${r.path.replace(REPO_PATH, "")}${query ? `?${query}` : ""}`;
      })
      .sort();

  it("comments once per stack on the pull request, and updates those comments on the next push", async () => {
    fixture.repo.checkout("fleet-change", true);
    writeFileSync(
      siteA(),
      readFileSync(siteA(), "utf8")
        .replace("a-gate-controller", "a-main-gate-controller")
        .replace(
          /^.*240000A20202.*\n/m,
          '    - { sn: "240000A20203", name: a-yard-light-2, project: site-a }\n',
        ),
    );
    fixture.repo.commit("site-a: rename a controller, replace the yard light");
    await control.resetCounters();

    const first = await fixture.run("pull_request", "preview.yml", pullRequestEvent(PR), 2);
    expect(first.exitCode, first.output).toBe(0);
    expect(first.jobs, first.output).toEqual({
      "preview-1": "succeeded",
      "preview-2": "succeeded",
      [VERDICT]: "succeeded",
    });
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
    // Per stack: one page of the pull request's comments read, one comment posted.
    expect(receivedSince(0)).toEqual([
      `GET /issues/${PR}/comments?per_page=100`,
      `GET /issues/${PR}/comments?per_page=100`,
      `POST /issues/${PR}/comments`,
      `POST /issues/${PR}/comments`,
    ]);
    expect(prComments()).toHaveLength(2);
    const [a, b] = ["site-a", "site-b"].map((stack) =>
      prComments().find((c) => c.body.includes(marker(stack))),
    );
    // Each serial number under its category, removals first, under the removal banner.
    expect(serials(a?.body, "To remove")).toEqual(["240000A20202"]);
    expect(serials(a?.body, "To add")).toEqual(["240000A20203"]);
    expect(serials(a?.body, "To update")).toEqual(["240000A20201"]);
    expect(a?.body).toContain("> [!CAUTION]\n> **1 device will be removed**");
    expect(a?.body.indexOf("### To remove")).toBeLessThan(a?.body.indexOf("### To add") ?? 0);
    expect(b?.body).not.toContain("240000A20201");
    expect(b?.body).not.toContain("removed**");
    // The policy pack ran on both previews and found nothing.
    expect(a?.body).not.toContain("Policy violations");
    if (!a || !b) throw new Error("a stack's comment is missing");

    // A better name, and a device added without a project: the team's policy-config.json
    // requires one (devplatform-project-and-tags, mandatory).
    writeFileSync(
      siteA(),
      readFileSync(siteA(), "utf8")
        .replace("a-main-gate-controller", "a-north-gate-controller")
        .replace(
          /^.*240000A20203.*\n/m,
          (line) => `${line}    - { sn: "240000A20204", name: a-yard-light-3 }\n`,
        ),
    );
    fixture.repo.commit("site-a: a better name, and a light without a project");
    const since = fixture.github.requests.length;
    const second = await fixture.run("pull_request", "preview.yml", pullRequestEvent(PR), 3);
    // site-a's preview fails on the mandatory policy: its check fails, after its comment, and so
    // does the required check (the verdict): the pull request cannot be merged.
    expect(second.exitCode, second.output).not.toBe(0);
    expect(second.jobs, second.output).toEqual({
      "preview-1": "failed",
      "preview-2": "succeeded",
      [VERDICT]: "failed",
    });
    // site-a's comment edited in place, site-b's (whose summary is the same) left alone: no new one.
    expect(receivedSince(since)).toEqual([
      `GET /issues/${PR}/comments?per_page=100`,
      `GET /issues/${PR}/comments?per_page=100`,
      `PATCH /issues/comments/${a.id}`,
    ]);
    expect(prComments().map((c) => c.id)).toEqual([a.id, b.id].sort((x, y) => x - y));
    const edited = prComments().find((c) => c.id === a.id)?.body;
    expect(edited).toContain("a-north-gate-controller");
    expect(edited).toContain("**The preview failed**");
    expect(edited).toContain("### Policy violations (1)");
    expect(edited).toContain(
      '| mandatory | `devplatform-guardrails` / `devplatform-project-and-tags` | `fleet` | DeviceFleet "fleet": 1 device with no project (240000A20204) |',
    );
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
  });

  it("opens one drift issue for the drifted stack, naming the device, and closes it once the drift is gone", async () => {
    fixture.repo.checkout("main"); // the pull request is not merged: main is what was deployed
    const device = (await control.state()).devices.find((d) => d.sn === "240000A20301");
    if (!device) throw new Error("site-b's device is not on the platform");
    await control.changeDevice(device.deviceId, { name: "renamed-by-hand" });

    let since = fixture.github.requests.length;
    const drifted = await fixture.run("schedule", "drift.yml", {}, 4);
    expect(drifted.exitCode, drifted.output).toBe(0);
    expect(drifted.jobs, drifted.output).toEqual({ "drift-1": "succeeded", "drift-2": "succeeded" });
    // Per stack: one page of the open drift issues read; one issue opened, for site-b.
    expect(receivedSince(since)).toEqual([OPEN_DRIFT_ISSUES, OPEN_DRIFT_ISSUES, "POST /issues"]);
    const issues = () => [...fixture.github.issues.values()].filter((i) => i.labels.includes("drift"));
    expect(issues()).toHaveLength(1);
    expect(issues()[0]).toMatchObject({ state: "open" });
    expect(issues()[0]?.title).toContain("site-b");
    expect(issues()[0]?.body).toContain("240000A20301");
    expect(issues()[0]?.body).toContain("renamed-by-hand");

    await control.changeDevice(device.deviceId, { name: "b-gate-controller" });
    since = fixture.github.requests.length;
    const clean = await fixture.run("schedule", "drift.yml", {}, 5);
    expect(clean.exitCode, clean.output).toBe(0);
    expect(clean.jobs, clean.output).toEqual({ "drift-1": "succeeded", "drift-2": "succeeded" });
    const number = issues()[0]?.number;
    // The issue gets a closing comment and is closed; nothing else is written.
    expect(receivedSince(since)).toEqual(
      [
        OPEN_DRIFT_ISSUES,
        OPEN_DRIFT_ISSUES,
        `PATCH /issues/${number}`,
        `POST /issues/${number}/comments`,
      ].sort(),
    );
    expect(issues()).toHaveLength(1);
    expect(issues()[0]).toMatchObject({ state: "closed" });
  });

  it("a fork's pull request is told plainly why it gets no preview, and its required check fails: nothing asked of the platform or GitHub", async () => {
    fixture.repo.checkout("fleet-change");
    await control.resetCounters();
    const since = fixture.github.requests.length;
    const result = await fixture.run(
      "pull_request",
      "preview.yml",
      pullRequestEvent(PR, "someone/fleet-repo"),
      6,
    );
    fixture.repo.checkout("main");
    expect(result.exitCode, result.output).not.toBe(0);
    expect(result.jobs, result.output).toEqual({ fork: "failed", [VERDICT]: "failed" });
    expect(result.output).toContain(
      "This pull request comes from the fork someone/fleet-repo. GitHub gives a fork's workflows none of this repository's secrets",
    );
    expect((await control.counters()).byRoute).toEqual({});
    expect(fixture.github.requests.length).toBe(since);
  });

  it("a drift check that fails shows its cause in the log, and fails its job", async () => {
    fixture.secretOverrides.DEVPLATFORM_CLIENT_SECRET = "not-the-secret";
    const since = fixture.github.requests.length;
    let result: Awaited<ReturnType<GitOpsFixture["run"]>>;
    try {
      result = await fixture.run("schedule", "drift.yml", {}, 7);
    } finally {
      delete fixture.secretOverrides.DEVPLATFORM_CLIENT_SECRET;
    }
    expect(result.exitCode, result.output).not.toBe(0);
    expect(result.jobs, result.output).toEqual({ "drift-1": "failed", "drift-2": "failed" });
    expect(result.output).toMatch(/::error title=The drift check of site-a failed::.*client/iu);
    expect(result.output).toMatch(/::error title=The drift check of site-b failed::.*client/iu);
    expect(result.output).not.toContain("not-the-secret");
    // No issue is opened or changed for a check that could not run.
    expect(fixture.github.writes().length).toBe(
      fixture.github.requests.slice(0, since).filter((r) => r.method !== "GET").length,
    );
  });
});
