/**
 * `devplatform export` against an emulator seeded with 250 devices, run as a child process: the
 * files it writes (exactly), the requests it makes (from the emulator's counters), both styles and
 * the filters.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import {
  formatInventory,
  formatRps,
  parseConfigGroups,
  parseInventory,
  type InventoryEntry,
} from "../../../inventory";
import { expectNoSecrets, fileNames, readTree } from "./support/exported-files";
import { seedFleet, type SeededFleet } from "./support/fleet-fixture";
import { credentialsFor, runDevplatform, type CliRun } from "./support/run-devplatform";

const packageJson = JSON.parse(readFileSync(path.resolve(__dirname, "../../../package.json"), "utf8")) as {
  version: string;
  devDependencies: Record<string, string>;
};

let emulator: RunningEmulator;
let fleet: SeededFleet;
let work: string;
const runs: CliRun[] = [];
const outputs: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator();
  fleet = await seedFleet(emulator.control);
  work = mkdtempSync(path.join(tmpdir(), "devplatform-export-"));
});
afterAll(async () => {
  // Whatever the tests did, no client secret or token issued to the CLI is in what it printed or wrote.
  expectNoSecrets(["demo-secret", ...(await emulator.control.issuedTokens())], runs, outputs);
  await emulator.stop();
  rmSync(work, { recursive: true, force: true });
});

/** Runs an export into a fresh directory under `work`, counting the requests it makes. */
async function exportTo(name: string, args: string[] = []) {
  const out = path.join(work, name);
  await emulator.control.resetCounters();
  const run = await runDevplatform(["export", "--out", out, ...args], { env: credentialsFor(emulator.url) });
  runs.push(run);
  outputs.push(out);
  expect(run.stderr).not.toMatch(/error|unexpected/i);
  expect(run.code).toBe(0);
  return { out, run, counters: (await emulator.control.counters()).byRoute };
}

describe("export --style fleet --include-rps --include-config", () => {
  let result: Awaited<ReturnType<typeof exportTo>>;
  beforeAll(async () => {
    result = await exportTo("fleet", ["--include-rps", "--include-config", "--project-name", "my-fleet"]);
  }, 120_000);

  it("writes a ready Pulumi project and the three data files, nothing else", () => {
    expect(fileNames(result.out)).toEqual([
      ".gitignore",
      "Pulumi.yaml",
      "config.json",
      "index.ts",
      "inventory.csv",
      "package.json",
      "rps.csv",
      "tsconfig.json",
    ]);
    const files = readTree(result.out);
    expect(files.get("Pulumi.yaml")).toContain('name: "my-fleet"');
    expect(files.get("Pulumi.yaml")).toMatch(
      /runtime:\n {2}name: nodejs\n {2}options:\n {4}typescript: true\n/,
    );
    const manifest = JSON.parse(files.get("package.json") ?? "{}") as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(manifest.dependencies).toEqual({
      "@pulumi/pulumi": `^${packageJson.devDependencies["@pulumi/pulumi"]}`,
      "pulumi-devplatform": `^${packageJson.version}`,
    });
    expect(Object.keys(manifest.devDependencies).sort()).toEqual(["@types/node", "ts-node", "typescript"]);
    const index = files.get("index.ts") ?? "";
    expect(index).toContain('from "pulumi-devplatform/inventory"');
    expect(index).toContain("new DeviceFleet(`fleet-${group.key}`");
    expect(index).toContain('new RpsFleet("rps-records", {\n  records: readRps(dataFile("rps.csv")),');
    expect(index).toContain("new DeviceConfig(group.name");
  });

  it("inventory.csv holds exactly the application's devices, in platform order, RFC 4180-quoted", () => {
    const text = readFileSync(path.join(result.out, "inventory.csv"), "utf8");
    expect(text.split("\n")[0]).toBe("sn,name,project,description,tags");
    expect(text).toBe(formatInventory(fleet.inventory));
    expect(parseInventory(text)).toEqual(fleet.inventory);
    expect(text).toContain('"lobby, ""main"" entrance"');
    expect(text).toContain("Zürich — 東京 🚀");
    expect(text).toContain('"two lines:\nsecond"');
    expect(text).not.toContain("other-");
  });

  it("rps.csv holds the application's 5 RPS records, not another application's, by serial number", () => {
    const bySn = [...fleet.rps].sort((a, b) => (a.sn.toUpperCase() < b.sn.toUpperCase() ? -1 : 1));
    expect(readFileSync(path.join(result.out, "rps.csv"), "utf8")).toBe(formatRps(bySn));
  });

  it("config.json groups devices with identical configurations by serial number, writable properties only", () => {
    const groups = parseConfigGroups(readFileSync(path.join(result.out, "config.json"), "utf8"));
    // Exactly one group per configuration variant seeded, holding exactly that variant's devices.
    const expected = new Map<string, string[]>();
    for (const entry of fleet.inventory) {
      const variant = fleet.variantOf.get(entry.sn) as string;
      expected.set(variant, [...(expected.get(variant) ?? []), entry.sn]);
    }
    expect(groups.map((g) => g.serials).sort()).toEqual([...expected.values()].sort());
    expect(groups.reduce((n, g) => n + g.serials.length, 0)).toBe(250);
    expect(new Set(groups.map((g) => g.name)).size).toBe(groups.length);
    const sensors900 = groups.find((g) => g.serials.includes(fleet.inventory[0]?.sn ?? ""));
    expect(sensors900?.name).toMatch(/^config-envsense-s24-\d$/);
    expect(sensors900?.properties).toEqual({
      reportInterval: 900,
      temperatureUnit: 0,
      ledEnabled: true,
      alarmThreshold: { high: 28, low: 5, enabled: false },
    });
    // A write-only setting (label) is not exported: such settings may be keys or tokens.
    expect(sensors900?.properties).not.toHaveProperty("label");
    // A read-only property set on the device (temperature) is not configuration.
    const sensors300 = groups.find((g) => g.serials.includes(fleet.inventory[4]?.sn ?? ""));
    expect(sensors300?.properties).toMatchObject({ reportInterval: 300 });
    expect(sensors300?.properties).not.toHaveProperty("temperature");
    for (const group of groups) expect(group.serials.every((sn) => !/^\d{18,}$/.test(sn))).toBe(true);
  });

  it("reads with ⌈250/100⌉ searches, one RPS listing, and one configuration and one TSL model per device", () => {
    expect(result.counters).toEqual({
      "POST /oauth/token": 1,
      "POST /devices/search": 3,
      "POST /rps/search": 1,
      "GET /devices/{deviceId}/config": 250,
      "GET /devices/{deviceId}/thing-specification": 250,
    });
  });

  it("prints a summary and the exact next commands, with the secret asked for, never shown", () => {
    const { stdout } = result.run;
    expect(stdout).toContain("  250 devices in 3 projects, 25 without a project\n");
    expect(stdout).toContain("  5 RPS records\n");
    expect(stdout).toMatch(
      / {2}\d+ configurations \(groups of devices with identical settings, 250 devices\)/,
    );
    expect(stdout).toMatch(
      /with 505 requests \(1 token, 3 device searches, 1 RPS listing, 250 configurations, 250 TSL models\)/,
    );
    expect(stdout).toContain(
      [
        "Next steps:",
        `  cd ${result.out} && npm install`,
        "  pulumi stack init dev",
        `  pulumi config set devplatform:baseUrl ${emulator.url}`,
        "  pulumi config set devplatform:clientId demo-client",
        "  pulumi config set --secret devplatform:clientSecret   # asks for the client secret",
        "  pulumi preview   # the devices are adopted by serial number",
        "  pulumi up",
      ].join("\n"),
    );
    expect(result.run.stderr).toContain("write-only properties were left out of config.json");
  });
});

describe("export --style devices", () => {
  it("declares one Device per line and reads nothing but the devices (3 searches)", async () => {
    const { out, counters } = await exportTo("devices", ["--style", "devices"]);
    expect(fileNames(out)).toEqual([
      ".gitignore",
      "Pulumi.yaml",
      "index.ts",
      "inventory.csv",
      "package.json",
      "tsconfig.json",
    ]);
    const index = readFileSync(path.join(out, "index.ts"), "utf8");
    expect(index).toContain("new Device(sn, { sn, name, project, description, tags })");
    expect(index).not.toMatch(/DeviceFleet|RpsFleet|RpsProfile|DeviceConfig/);
    expect(readFileSync(path.join(out, "Pulumi.yaml"), "utf8")).toContain('name: "devices"');
    expect(parseInventory(readFileSync(path.join(out, "inventory.csv"), "utf8"))).toEqual(fleet.inventory);
    expect(counters).toEqual({ "POST /oauth/token": 1, "POST /devices/search": 3 });
  });
});

describe("filters", () => {
  const expectedFor = (projects: string[], tags: string[]) =>
    fleet.inventory.filter(
      (e: InventoryEntry) =>
        (projects.length === 0 || (e.project !== undefined && projects.includes(e.project))) &&
        (tags.length === 0 || (e.tags ?? []).some((t) => tags.includes(t))),
    );

  it("--project P (repeatable): devices of those projects only", async () => {
    const { out, run } = await exportTo("two-projects", [
      "--project",
      "building-a",
      "--project",
      "Building B",
    ]);
    const inventory = parseInventory(readFileSync(path.join(out, "inventory.csv"), "utf8"));
    expect(inventory).toEqual(expectedFor(["building-a", "Building B"], []));
    expect(new Set(inventory.map((e) => e.project))).toEqual(new Set(["building-a", "Building B"]));
    expect(run.stdout).toContain(`${inventory.length} devices (of 250 in the application) in 2 projects\n`);
  });

  it("--tag T (repeatable): devices with at least one of the tags", async () => {
    const { out } = await exportTo("tags", ["--tag", "critical", "--tag", "floor-1"]);
    const inventory = parseInventory(readFileSync(path.join(out, "inventory.csv"), "utf8"));
    expect(inventory).toEqual(expectedFor([], ["critical", "floor-1"]));
    expect(inventory.length).toBe(100);
  });

  it("--project and --tag together: both must match; a filtered fleet's configuration covers only its devices", async () => {
    const { out, counters } = await exportTo("both", [
      "--project",
      "warehouse",
      "--tag",
      "critical",
      "--include-config",
    ]);
    const inventory = parseInventory(readFileSync(path.join(out, "inventory.csv"), "utf8"));
    const expected = expectedFor(["warehouse"], ["critical"]);
    expect(inventory).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
    const groups = parseConfigGroups(
      readFileSync(path.join(out, "config.json"), "utf8"),
      "config.json",
      inventory,
    );
    expect(groups.flatMap((g) => g.serials).sort()).toEqual(expected.map((e) => e.sn).sort());
    // The whole application is searched (the platform has no project filter), then filtered here.
    expect(counters["POST /devices/search"]).toBe(3);
    expect(counters["GET /devices/{deviceId}/config"]).toBe(expected.length);
  });
});
