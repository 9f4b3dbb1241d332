/**
 * Bringing a live fleet under Pulumi, on the real CLI: `devplatform export` (the package's own
 * command, as installed) writes a project from an application seeded with 120 devices of four
 * models in three projects (and none), with tags, configurations and RPS records; its first `up`
 * adopts everything without a single write; preview and refresh then find no changes; one changed
 * line of inventory.csv is exactly one PUT. Both styles: one DeviceFleet per project, and one
 * Device per line.
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { seedFleet, type SeededFleet } from "../integration/cli/support/fleet-fixture";
import { assertOk, PulumiProject } from "./support/pulumi-project";
import { writesOf } from "./support/platform-writes";
import { e2e } from "./support/e2e-context";

const run = promisify(execFile);
const COUNT = 120;

describe.each(["fleet", "devices"] as const)("export --style %s, then pulumi up", (style) => {
  let emulator: RunningEmulator;
  let fleet: SeededFleet;
  let project: PulumiProject;
  let exportOutput: string;

  beforeAll(async () => {
    const context = e2e();
    // An application of its own, so that what is exported is exactly what was seeded.
    emulator = await startEmulator({ control: true });
    fleet = await seedFleet(emulator.control, COUNT);
    const out = path.join(context.workDir, `exported-${style}`);
    const devplatform = path.join(context.nodeModules, ".bin", "devplatform");
    const { stdout, stderr } = await run(
      devplatform,
      ["export", "--out", out, "--style", style, "--include-rps", "--include-config"],
      {
        env: {
          ...process.env,
          DEVPLATFORM_BASE_URL: emulator.url,
          DEVPLATFORM_CLIENT_ID: "demo-client",
          DEVPLATFORM_CLIENT_SECRET: "demo-secret",
        },
      },
    );
    exportOutput = stdout + stderr;
    // The exported program is what a user then runs, type-checked: it must compile as written.
    project = await PulumiProject.open(
      out,
      `exported-${style}`,
      { ...context, emulatorUrl: emulator.url },
      { typeCheck: true },
    );
  });

  afterAll(async () => {
    await emulator.stop();
  });

  it("exports every device, record and configuration, and says what to run next", () => {
    expect(exportOutput).toContain(`${COUNT} devices`);
    expect(exportOutput).toContain("pulumi up");
    const inventory = readFileSync(path.join(project.dir, "inventory.csv"), "utf8");
    expect(inventory.startsWith("sn,name,project,description,tags\n")).toBe(true);
    for (const entry of fleet.inventory) expect(inventory).toContain(entry.sn);
  });

  it("adopts the whole fleet on the first up with one PUT each (the owner tag), and the preview says so", async () => {
    const preview = assertOk(await project.preview());
    if (style === "fleet") {
      expect(preview.output).toMatch(
        /DeviceFleet fleet-[\w-]+: \d+ to add: \d+ already on the platform will be adopted \(0 unchanged, \d+ updated\), 0 new/,
      );
    }
    await emulator.control.resetCounters();
    const up = assertOk(await project.up());
    const { byRoute, total } = await emulator.control.counters();
    // Nothing differs but the owner tag the exported devices lack: one PUT each writes it.
    expect(writesOf(byRoute)).toEqual({ "PUT /devices": COUNT });
    const adopted = up.diagnostics.filter((d) =>
      /adopted deviceId .*\(owner tag written\)/.test(d.message),
    ).length;
    if (style === "devices") expect(adopted).toBe(COUNT);
    console.log(
      `export --style ${style}: the first up of ${COUNT} devices made ${total} requests, ${COUNT} of them the owner tag's PUT: ${JSON.stringify(byRoute)}`,
    );
  });

  it("previews and refreshes with no changes", async () => {
    assertOk(await project.preview({ expectNoChanges: true }));
    assertOk(await project.refreshExpectingNoChanges());
    assertOk(await project.preview({ expectNoChanges: true }));
  });

  it("turns one changed line of inventory.csv into exactly one PUT", async () => {
    const file = path.join(project.dir, "inventory.csv");
    const target = fleet.inventory[20];
    if (!target) throw new Error("fixture too small");
    const lines = readFileSync(file, "utf8").split("\n");
    const index = lines.findIndex((line) => line.startsWith(`${target.sn},`));
    lines[index] = (lines[index] ?? "").replace(`,${target.name},`, ",renamed-in-a-pull-request,");
    writeFileSync(file, lines.join("\n"));
    await emulator.control.resetCounters();
    assertOk(await project.up());
    expect(writesOf((await emulator.control.counters()).byRoute)).toEqual({ "PUT /devices": 1 });
    const renamed = (await emulator.control.state()).devices.find((d) => d.sn === target.sn);
    expect(renamed?.name).toBe("renamed-in-a-pull-request");
    assertOk(await project.preview({ expectNoChanges: true }));
  });
});
