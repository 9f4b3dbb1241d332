/**
 * The review on the real CLI, through both front-ends: a stack's pull-request change (two devices
 * added, one renamed, one removed, a report interval changed) previewed with `pulumi preview --json`
 * and with its streaming form, each turned into the stack's comment by the installed package's
 * `devplatform pr-summary`; an input error; and drift (a device renamed on the platform, found by
 * `pulumi preview --refresh --expect-no-changes --json`, exit 7). The comment names devices, not
 * resources, and never the program's secret (which the streaming form's debug lines do carry).
 * With DEVPLATFORM_RECORD_REVIEW=DIR, the previews are also written to DIR: that is how the unit
 * tests' recorded previews (test/unit/cli/fixtures/review/) were made.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { createProject } from "./support/e2e-project";
import { e2e } from "./support/e2e-context";
import { FRONT_ENDS } from "./support/front-ends";
import { serialNumbers } from "./support/fleet-programs";
import { assertOk, type PulumiProject } from "./support/pulumi-project";
import {
  changedWorld,
  firstWorld,
  pick,
  REVIEW_SECRET,
  reviewProgram,
  type ReviewWorld,
} from "./support/review-programs";

const STREAMING = { PULUMI_ENABLE_STREAMING_JSON_PREVIEW: "1" };

describe.each(FRONT_ENDS)("the review of a stack through the %s front-end", (front) => {
  let project: PulumiProject;
  let world: ReviewWorld;
  let changed: ReviewWorld;

  function write(next: ReviewWorld): void {
    writeFileSync(path.join(project.dir, "fleet.json"), JSON.stringify(next.fleet));
    writeFileSync(
      path.join(project.dir, "config.json"),
      JSON.stringify({ reportInterval: next.reportInterval }),
    );
  }

  /** `pulumi preview --json …` into a file (recorded when asked); its exit code. */
  async function previewJson(name: string, args: string[] = [], env: Record<string, string> = {}) {
    const result = await project.cli(["preview", "--json", ...args], { env });
    const file = path.join(project.dir, name);
    writeFileSync(file, result.stdout);
    const record = process.env.DEVPLATFORM_RECORD_REVIEW;
    if (record) {
      mkdirSync(record, { recursive: true });
      writeFileSync(path.join(record, `${front}-${name}`), result.stdout);
    }
    return { file, exitCode: result.exitCode };
  }

  /** The installed package's `devplatform pr-summary`, as a workflow runs it. */
  function prSummary(file: string, extra: string[] = []): string {
    const main = path.join(e2e().nodeModules, "pulumi-devplatform", "dist", "cli", "main.js");
    const run = spawnSync(
      process.execPath,
      [main, "pr-summary", "--stack", "dev", "--preview", file, ...extra],
      {
        encoding: "utf8",
      },
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain(REVIEW_SECRET);
    return run.stdout;
  }

  beforeAll(async () => {
    const [solo] = serialNumbers(1, "66");
    project = await createProject({ name: `review-${front}`, program: reviewProgram(String(solo)), front });
    world = firstWorld(4);
    write(world);
    assertOk(await project.up());
    changed = changedWorld(world);
    write(changed);
  });

  it.each([
    ["preview.json", {}],
    ["preview-stream.jsonl", STREAMING],
  ] as const)("turns %s into a comment naming each device that changes", async (name, env) => {
    const preview = await previewJson(name, [], env);
    expect(preview.exitCode).toBe(0);
    const comment = prSummary(preview.file, ["--exit-code", String(preview.exitCode)]);
    const first = pick(world.fleet, 0);
    const removed = pick(world.fleet, -1);
    const added = changed.fleet.slice(-2);
    expect(comment).toContain("<!-- devplatform-summary:dev -->");
    expect(comment).toContain("**1 device will be removed**");
    expect(comment).toContain("| 4 changing | 2 | 1 | 0 | 0 | 1 | 2 |");
    // Removals come before every other list.
    expect(comment.indexOf(`\n${removed.sn}\n`)).toBeGreaterThan(0);
    expect(comment.indexOf(`\n${removed.sn}\n`)).toBeLessThan(comment.indexOf("### To update"));
    expect(comment).toContain(
      `- \`${first.sn}\` (fleet site-a): name \`"device-0"\` → \`"device-0-renamed"\``,
    );
    for (const device of added) expect(comment).toContain(`\n${device.sn}\n`);
    expect(comment).toContain(
      "DeviceConfig site-a-reporting (update): properties.reportInterval `900` → `600`",
    );
    expect(comment).not.toContain("The preview failed");
  });

  it("the engine gets the fleet's detail: --diff and --json name only the devices that change", async () => {
    const input = front === "plugin" ? "devices" : "entries";
    const [first, unchanged] = [pick(world.fleet, 0), pick(world.fleet, 1)];
    const removed = pick(world.fleet, -1);
    const added = changed.fleet.slice(-2);
    const preview = await previewJson("detail.json");
    const steps = (
      JSON.parse(readFileSync(preview.file, "utf8")) as { steps: { urn: string; detailedDiff: unknown }[] }
    ).steps;
    const fleet = steps.find((step) => step.urn.endsWith("DeviceFleet::site-a"));
    expect(fleet?.detailedDiff).toEqual({
      [`${input}["${first.sn}"].name`]: { kind: "update", inputDiff: true },
      [`${input}["${removed.sn}"]`]: { kind: "delete", inputDiff: true },
      [`${input}["${pick(added, 0).sn}"]`]: { kind: "add", inputDiff: true },
      [`${input}["${pick(added, 1).sn}"]`]: { kind: "add", inputDiff: true },
    });
    const diff = assertOk(await project.preview({ diff: true }));
    for (const sn of [first.sn, removed.sn, pick(added, 0).sn]) expect(diff.stdout).toContain(sn);
    expect(diff.stdout).not.toContain(unchanged.sn);
  });

  it("says the preview failed, with the error naming the input", async () => {
    write({ ...changed, fleet: [...changed.fleet, { sn: "not-a-serial", name: "bad" }] });
    const preview = await previewJson("bad-input.json");
    write(changed);
    expect(preview.exitCode).not.toBe(0);
    const comment = prSummary(preview.file, ["--exit-code", String(preview.exitCode)]);
    expect(comment).toContain("**The preview failed**");
    expect(comment).toMatch(/- \*\*error\*\*.*devices\[5\]\.sn/);
  });

  it("names the device renamed on the platform as drift", async () => {
    write(world);
    assertOk(await project.up());
    const control = new EmulatorControl(e2e().emulatorUrl);
    const first = pick(world.fleet, 0);
    const device = (await control.state()).devices.find((d) => d.sn === first.sn);
    await control.changeDevice(String(device?.deviceId), { name: "renamed-out-of-band" });
    const preview = await previewJson("drift.json", ["--refresh", "--expect-no-changes"]);
    expect(preview.exitCode).not.toBe(0);
    const comment = prSummary(preview.file, ["--exit-code", String(preview.exitCode), "--drift"]);
    expect(comment).toContain("## Drift in stack `dev`");
    expect(comment).toContain(
      `- \`${first.sn}\` (fleet site-a): name \`"renamed-out-of-band"\` → \`"device-0"\``,
    );
  });
});
