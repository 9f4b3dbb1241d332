/**
 * `npm run bench [-- --sizes 1000,10000 | --devices N] [--latency MS] [--fleet-only]
 * [--no-devices-baseline] [--no-noop-baseline] [--no-fixed-cost] [--plugin-start-only]`: the
 * provider measured side by side, in one run, against the Pulumi engine's own floor. In order: the
 * plugin's start (plugin-start.ts: the release executable against the npm launcher; alone with
 * `--plugin-start-only`); the fixed cost of one command per language (fixed-cost.ts); then at each
 * size N the dynamic DeviceFleet, the plugin's DeviceFleet and N no-op resources (and N Devices for
 * N ≤ 2,000) step by step (fleet-suite.ts); then, for N up to 2,000 and unless `--fleet-only`, N
 * Devices with the engine's default checkpoints, a configuration rollout and a plain script
 * (engine-floor.ts). With `--limit` (or `--limit-only`, which keeps the other figures of
 * bench/results.json), the platform-limit table (platform-limit.ts): `--limit-rows KxM@R,…`
 * (default 1x2000@20,8x250@20,20x500@50), and
 * `--limit-base DIR` measures a tree at DIR (an earlier commit's worktree) as `before` (or
 * `--limit-base-label L`), side by side with this one; `--limit-label L` names this tree's figures (default `after`), `--limit-append`
 * adds them to those bench/results.json holds, and `--no-limit-config` leaves the DeviceConfig
 * out; `--limit-one-machine` has the stacks keep one pace, as on one machine (by default each paces as
 * on a machine of its own). `--limit-large` measures only the 100,000-device run (20 × 5,000 at 100/s:
 * the `up`, the refresh, no DeviceConfig; the label, append and one-machine options as above) and
 * keeps every other figure. `--rps-only` measures only the RPS rows (rps-suite.ts) at each size — a
 * batch of N records against N RpsProfiles (N ≤ 2,000), N no-op resources and one of the batch's
 * shape — and the limit table's batch row (`--rps-limit KxM@R`, default 1x2000@20; `--no-rps-limit`
 * leaves it out), keeping every other figure. Writes bench/results.json with the machine and its load average, and
 * regenerates the documentation's tables from it (write-table.ts). Figures are whole-command wall
 * times on a shared machine: read the ratios.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "../emulator";
import { prepareToolchain, removeWorkDir } from "../test/e2e/support/toolchain";
import { PULUMI_SDK_VERSION } from "../test/e2e/support/versions";
import { MAX_CHECKPOINTED_RESOURCES, measureEngineFloorSuite } from "./engine-floor";
import { measureFixedCost } from "./fixed-cost";
import { measureFleet } from "./fleet-suite";
import { archiveExecutable, measurePluginStart } from "./plugin-start";
import {
  DEFAULT_LIMIT_ROWS,
  installTree,
  LARGE_LIMIT_ROW,
  measureLimitRow,
  parseLimitRows,
} from "./platform-limit";
import { loadNow, withRpsRun, type BenchResults, type RpsResults } from "./results";
import { renderTables } from "./results-table";
import { printTable, type Row } from "./table";
import { DEFAULT_RPS_LIMIT_ROW, measureRpsLimitRow, parseRpsLimitRow } from "./rps-limit";
import { measureRps } from "./rps-suite";
import { writeTables } from "./write-table";

const RESULTS_FILE = path.join(__dirname, "results.json");

/** Ends the run after the platform-limit table (`--limit-only`) or the RPS rows (`--rps-only`). */
class LimitOnly extends Error {}

/** The commit measured (with `+changes` when the provider's code differs from it). */
function headCommit(): string {
  const root = path.resolve(__dirname, "..");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
  const changed = git("status", "--porcelain", "--", "provider", "sdk", "emulator").length > 0;
  return git("rev-parse", "--short", "HEAD") + (changed ? "+changes" : "");
}

function parseSizes(sizes: string, devices: string | undefined): number[] {
  const list = (devices ?? sizes).split(",").map((s) => Number(s.trim()));
  for (const n of list) {
    if (!Number.isInteger(n) || n < 1) throw new Error(`sizes must be positive whole numbers, got ${n}`);
  }
  return list;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: "string", default: "1000,10000" },
      devices: { type: "string" },
      latency: { type: "string" },
      "fleet-only": { type: "boolean", default: false },
      "no-devices-baseline": { type: "boolean", default: false },
      "no-noop-baseline": { type: "boolean", default: false },
      "no-fixed-cost": { type: "boolean", default: false },
      "plugin-start-only": { type: "boolean", default: false },
      limit: { type: "boolean", default: false },
      "limit-only": { type: "boolean", default: false },
      "limit-rows": { type: "string" },
      "limit-base": { type: "string" },
      "limit-large": { type: "boolean", default: false },
      "limit-label": { type: "string", default: "after" },
      "limit-base-label": { type: "string", default: "before" },
      "limit-append": { type: "boolean", default: false },
      "no-limit-config": { type: "boolean", default: false },
      "limit-one-machine": { type: "boolean", default: false },
      "rps-only": { type: "boolean", default: false },
      "rps-limit": { type: "string" },
      "no-rps-limit": { type: "boolean", default: false },
    },
  });
  const sizes = parseSizes(values.sizes, values.devices);
  const latencyMs = values.latency === undefined ? undefined : Number(values.latency);
  if (latencyMs !== undefined && (!Number.isInteger(latencyMs) || latencyMs < 0))
    throw new Error(`--latency must be a whole number of milliseconds, got ${values.latency}`);

  const workDir = mkdtempSync(path.join(tmpdir(), "devplatform-bench-"));
  console.log(`preparing the toolchain in ${workDir} …`);
  const toolchain = prepareToolchain(workDir);
  const emulator = await startEmulator({ control: true });
  const context = { ...toolchain, workDir, emulatorUrl: emulator.url };
  const cpu = cpus();
  let results: BenchResults = {
    date: new Date().toISOString(),
    machine: {
      cores: cpu.length,
      cpu: cpu[0]?.model ?? "unknown",
      platform: `${process.platform}-${process.arch}`,
      node: process.version,
      pulumi: `v${PULUMI_SDK_VERSION}`,
      load: { start: loadNow(), end: 0 },
    },
    fleets: [],
    fleetsCommit: headCommit(),
  };
  const rows: Row[] = [];
  const limitOnly = values["limit-only"];
  const rpsOnly = values["rps-only"];
  const previous = existsSync(RESULTS_FILE)
    ? (JSON.parse(readFileSync(RESULTS_FILE, "utf8")) as BenchResults)
    : undefined;
  if ((limitOnly || values["limit-large"]) && previous) {
    // Only the platform-limit figures are measured: the others stay as the last run left them.
    Object.assign(results, { ...previous, date: results.date, machine: results.machine });
    results.fleetsCommit = previous.fleetsCommit;
  }
  let rps: RpsResults | undefined;

  try {
    if (rpsOnly) {
      rps = { commit: headCommit(), date: results.date, load: { start: loadNow(), end: 0 }, sizes: [] };
      for (const n of sizes) {
        console.log(`N = ${n}: an RpsFleet of ${n} records, ${n} RpsProfiles and the engine's floor …`);
        rps.sizes.push(await measureRps(n, context, n <= MAX_CHECKPOINTED_RESOURCES));
      }
      if (!values["no-rps-limit"]) {
        const row = values["rps-limit"] ? parseRpsLimitRow(values["rps-limit"]) : DEFAULT_RPS_LIMIT_ROW;
        console.log(`platform limit, batches: ${row.stacks} × ${row.records} records at ${row.rate}/s …`);
        rps.limit = await measureRpsLimitRow(row, context);
        console.log(JSON.stringify(rps.limit));
      }
      throw new LimitOnly();
    }
    if ((values.limit || limitOnly) && !values["limit-large"]) {
      const limitRows = values["limit-rows"] ? parseLimitRows(values["limit-rows"]) : DEFAULT_LIMIT_ROWS;
      const codes = [
        ...(values["limit-base"]
          ? [
              {
                code: values["limit-base-label"],
                nodeModules: installTree(values["limit-base"], workDir, "before"),
              },
            ]
          : []),
        { code: values["limit-label"], nodeModules: toolchain.nodeModules },
      ];
      if (!values["limit-append"]) results.platformLimit = [];
      results.platformLimit ??= [];
      for (const row of limitRows) {
        for (const { code, nodeModules } of codes) {
          console.log(`platform limit: ${row.stacks} × ${row.devices} at ${row.rate}/s, ${code} …`);
          const figure = await measureLimitRow(
            row,
            code,
            { ...context, nodeModules },
            { config: !values["no-limit-config"], oneMachine: values["limit-one-machine"] },
          );
          console.log(JSON.stringify(figure));
          results.platformLimit.push(figure);
        }
      }
    }
    if (values["limit-large"]) {
      const row = LARGE_LIMIT_ROW;
      console.log(`platform limit, 100,000 devices: ${row.stacks} × ${row.devices} at ${row.rate}/s …`);
      // The up, the refresh and the no-change commands; a DeviceConfig over 100,000 devices would
      // double the run's hour and say nothing the 10,000-device row does not.
      const figure = await measureLimitRow(row, values["limit-label"], context, {
        config: false,
        oneMachine: values["limit-one-machine"],
      });
      console.log(JSON.stringify(figure));
      results.platformLimitLarge = [
        ...(values["limit-append"] ? (results.platformLimitLarge ?? []) : []),
        figure,
      ];
    }
    if (limitOnly || values["limit-large"]) throw new LimitOnly();
    console.log("plugin start, exec → port line: the archive's executable against the npm launcher …");
    const startLoad = loadNow();
    const executable = archiveExecutable(workDir);
    const launcher = path.join(toolchain.nodeModules, ".bin", "pulumi-resource-devplatform");
    const start = await measurePluginStart(executable.path, launcher);
    results.pluginStart = {
      ...start.figures,
      load: { start: startLoad, end: loadNow() },
      archive: {
        file: path.basename(executable.archive),
        bytes: statSync(executable.archive).size,
        executableBytes: statSync(executable.path).size,
      },
    };
    if (!values["plugin-start-only"]) {
      if (!values["no-fixed-cost"]) {
        console.log("fixed cost of one command (no-change preview), per language …");
        results.fixedCost = await measureFixedCost(context);
      }
      for (const n of sizes) {
        console.log(`N = ${n}: dynamic DeviceFleet, plugin DeviceFleet and ${n} no-op resources …`);
        results.fleets.push(
          await measureFleet(n, context, emulator, {
            latencyMs,
            withDevices: !values["no-devices-baseline"] && n <= MAX_CHECKPOINTED_RESOURCES,
            withNoop: !values["no-noop-baseline"],
          }),
        );
      }
      const small = sizes.filter((n) => n <= MAX_CHECKPOINTED_RESOURCES);
      const floorSize = small[small.length - 1];
      if (!values["fleet-only"] && floorSize !== undefined) {
        const floor: Record<string, unknown> = {};
        await measureEngineFloorSuite(floorSize, context, emulator, floor, rows);
        results.engineFloor = { devices: floorSize, ...floor };
      }
    }
  } catch (error) {
    if (!(error instanceof LimitOnly)) throw error;
  } finally {
    await emulator.stop();
    removeWorkDir(workDir);
  }
  results.machine.load.end = loadNow();
  if (rps) {
    // The RPS rows alone were measured: the rest, with its date and load, stays as it was.
    rps.load = { start: rps.load?.start ?? results.machine.load.start, end: results.machine.load.end };
    results = withRpsRun(previous, results, rps);
  }
  writeFileSync(RESULTS_FILE, JSON.stringify(results, null, 2) + "\n");
  console.log("\n" + renderTables(results));
  if (rows.length > 0) printTable(rows);
  console.log(`\nwritten to ${path.relative(process.cwd(), RESULTS_FILE)}`);
  for (const file of writeTables(results)) console.log(`tables regenerated in ${file}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
