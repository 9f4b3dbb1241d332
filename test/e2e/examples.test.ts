/**
 * Every example deploys and destroys against the emulator, as a user would run it after copying it
 * into a project that installs pulumi-devplatform.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { serialNumbers } from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import { assertOk, type PulumiProject } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";
import { instanceOf } from "../../provider/deployment/stack-instance";

const examplesDir = path.resolve(__dirname, "../../examples");

/** The example's program files (TypeScript and data), without its Pulumi.yaml and package.json. */
function exampleFiles(name: string): Record<string, string> {
  const dir = path.join(examplesDir, name);
  const files = readdirSync(dir).filter(
    (f) => /\.(ts|csv|yaml|json)$/.test(f) && !["Pulumi.yaml", "package.json"].includes(f),
  );
  return Object.fromEntries(files.map((f) => [f, readFileSync(path.join(dir, f), "utf8")]));
}

async function fromExample(name: string, config: Record<string, string> = {}): Promise<PulumiProject> {
  const { "index.ts": program, ...files } = exampleFiles(name);
  if (!program) throw new Error(`examples/${name} has no index.ts`);
  return createProject({ name: `example-${name}`, program, files, config });
}

let control: EmulatorControl;
beforeAll(() => {
  control = new EmulatorControl(e2e().emulatorUrl);
});

describe("examples/fleet", () => {
  it("deploys the inventory as one fleet per group, previews no changes, and destroys", async () => {
    const project = await fromExample("fleet", { "fleet:project": "example-fleet" });
    const preview = assertOk(await project.preview());
    expect(preview.output).toMatch(/DeviceFleet sensors: 3 to add/);
    const up = assertOk(await project.up());
    expect(up.changes.create).toBe(7); // the stack, 3 fleets (one per group), 3 group configs
    const ours = (await control.state()).devices.filter((d) => d.project === "example-fleet");
    expect(ours.map((d) => d.name).sort()).toContain("building-a-gateway");
    expect(ours.find((d) => d.name === "lobby-temperature")?.tag).toEqual([
      "group:sensors",
      "building-a",
      "floor-1",
      `pulumi-stack:example-fleet/dev@${instanceOf(`file://${project.stateDir}`)}`,
    ]);
    assertOk(await project.preview({ expectNoChanges: true }));

    // A pull request moves a device out of its group (its group column blanked: the `ungrouped`
    // fleet) and renames another. Its review, as the example fleet repository's workflow makes it
    // (`pulumi preview --json` into `devplatform pr-summary`), shows one move with its tags, not a
    // removal under the banner; the `up` keeps the moved device's deviceId.
    const lobby = ours.find((d) => d.name === "lobby-temperature");
    const inventory = readFileSync(path.join(examplesDir, "fleet", "inventory.csv"), "utf8")
      .replace("lobby-temperature,sensors,", "lobby-temperature,,")
      .replace("hvac-controller-b,", "hvac-controller-east,");
    writeFileSync(path.join(project.dir, "inventory.csv"), inventory);
    const review = await project.cli(["preview", "--json"]);
    writeFileSync(path.join(project.dir, "preview.json"), review.stdout);
    const summary = prSummary(path.join(project.dir, "preview.json"));
    expect(summary).toContain("| 2 changing | 0 | 1 | 1 | 0 | 0 | 3 |");
    expect(summary).not.toContain("will be removed");
    expect(summary).toContain(
      '- `240000A10001`: fleet sensors → fleet ungrouped; description `"sensors device managed by Pulumi"` → ' +
        '`"ungrouped device managed by Pulumi"`; tags `["group:sensors","building-a","floor-1"]` → ' +
        '`["group:ungrouped","building-a","floor-1"]`',
    );
    expect(summary).toContain(
      '- `AC0000C30002` (fleet controllers): name `"hvac-controller-b"` → `"hvac-controller-east"`',
    );
    expect(summary).toMatch(
      /DeviceConfig sensors-config: its properties do not change; it applies to 3 devices now, and to the devices its fleet has after the `up`/,
    );
    assertOk(await project.up());
    const moved = (await control.state()).devices.find((d) => d.sn === "240000A10001");
    expect(moved?.deviceId).toBe(lobby?.deviceId);
    expect(moved?.tag).toContain("group:ungrouped");

    assertOk(await project.destroy());
    expect((await control.state()).devices.filter((d) => d.project === "example-fleet")).toHaveLength(0);
  });
});

/** The installed package's `devplatform pr-summary` of a `pulumi preview --json` file, as a workflow runs it. */
function prSummary(file: string): string {
  const main = path.join(e2e().nodeModules, "pulumi-devplatform", "dist", "cli", "main.js");
  const run = spawnSync(process.execPath, [main, "pr-summary", "--stack", "dev", "--preview", file], {
    encoding: "utf8",
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return run.stdout;
}

describe("examples/devices", () => {
  it("deploys one Device per inventory line, named by serial number, and destroys", async () => {
    const project = await fromExample("devices", { "devices:project": "example-devices" });
    const up = assertOk(await project.up());
    expect(up.changes.create).toBe(4); // the stack and 3 devices
    const stack = await project.exportStack();
    const names = (stack.deployment.resources ?? [])
      .filter((r) => r.type.endsWith(":Device"))
      .map((r) => r.urn.split("::").pop());
    expect(names.sort()).toEqual(["240000D10001", "240000D10002", "660000D20001"]);
    assertOk(await project.preview({ expectNoChanges: true }));
    assertOk(await project.destroy());
    expect((await control.state()).devices.filter((d) => d.project === "office")).toHaveLength(0);
  });
});

describe("examples/rps-handover", () => {
  it("stages devices with RPS records, then hands them over to platform management in one up", async () => {
    const serials = serialNumbers(3, "AC");
    const project = await fromExample("rps-handover", { "rps-handover:serials": JSON.stringify(serials) });
    assertOk(await project.up());
    expect((await control.state()).rpsRecords.filter((r) => serials.includes(r.sn))).toHaveLength(3);

    assertOk(await project.cli(["config", "set", "rps-handover:stage", "managed"]));
    const handover = assertOk(await project.up());
    expect(handover.changes).toMatchObject({ create: 3, delete: 3 });
    const state = await control.state();
    expect(state.rpsRecords.filter((r) => serials.includes(r.sn))).toHaveLength(0);
    expect(state.devices.filter((d) => serials.includes(d.sn))).toHaveLength(3);

    assertOk(await project.destroy());
    expect((await control.state()).devices.filter((d) => serials.includes(d.sn))).toHaveLength(0);
  });
});

describe("examples/config-rollout", () => {
  it("rolls one configuration out through tasks, refuses a bad value at preview, and resets on destroy", async () => {
    const [prefix] = serialNumbers(1, "24").map((sn) => sn.slice(0, 10)) as [string];
    const project = await fromExample("config-rollout", { "config-rollout:snPrefix": prefix });
    const up = assertOk(await project.up());
    expect(up.changes.create).toBe(14); // the stack, 12 sensors, 1 rollout
    const ours = (await control.state()).devices.filter((d) => d.sn.startsWith(prefix));
    expect(ours).toHaveLength(12);
    const tasks = (await control.tasks()).filter((t) => ours.some((d) => d.deviceId === t.deviceId));
    expect(tasks).toHaveLength(12);

    assertOk(await project.cli(["config", "set", "config-rollout:reportInterval", "90000"]));
    await control.resetCounters();
    const refused = await project.preview();
    expect(refused.exitCode).not.toBe(0);
    expect(refused.output).toMatch(
      /DeviceConfig\.properties\.reportInterval must be at most 86400.*got 90000/,
    );
    const { byRoute } = await control.counters();
    const writes = Object.entries(byRoute).filter(
      ([route]) => !route.startsWith("GET ") && route !== "POST /oauth/token",
    );
    expect(writes).toEqual([]);

    assertOk(await project.cli(["config", "rm", "config-rollout:reportInterval"]));
    assertOk(await project.destroy());
    expect((await control.state()).devices.filter((d) => d.sn.startsWith(prefix))).toHaveLength(0);
    // resetOnDelete: one more task per device carried the TSL defaults back before the devices went.
    const after = (await control.tasks()).filter((t) => ours.some((d) => d.deviceId === t.deviceId));
    expect(after).toHaveLength(24);
  });
});
