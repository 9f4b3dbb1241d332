/**
 * The platform's rate limit as the budget every stack of an application shares: K stacks of M
 * devices each (one dynamic DeviceFleet per stack), their `up`s started at once against an emulator
 * limited to R requests a second, then a refresh of every stack at once, then a DeviceConfig over
 * each fleet added by every stack at once. K·M adds at R a second take K·M ÷ R seconds at best, so
 * the figure is wall ÷ (K·M ÷ R) (for the refresh: ÷ its searches at R; for the configuration: ÷
 * the requests the limit let through at R),
 * with the share of requests the limit refused and the `up`s that failed. Each code under test (this
 * tree's package, and with `--limit-base DIR` an earlier tree's, packed from DIR) gets an emulator
 * of its own per row, measured one after the other in one run.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import path from "node:path";
import { startEmulator } from "../emulator";
import { PulumiProject, type CommandResult, type PulumiContext } from "../test/e2e/support/pulumi-project";
import { deviceFleetProgram } from "../test/e2e/support/fleet-programs";
import { loadNow, type LoadAverage } from "./results";

/** One row: K stacks × M devices at R requests a second. */
export interface LimitRow {
  readonly stacks: number;
  readonly devices: number;
  readonly rate: number;
}

/** The 100,000-device run (`--limit-large`): 20 stacks × 5,000 at 100 requests a second. */
export const LARGE_LIMIT_ROW: LimitRow = { stacks: 20, devices: 5_000, rate: 100 };

/** The rows: 1 × 2,000 and 8 × 250 at 20/s, 20 × 500 at 50/s (10,000 devices). */
export const DEFAULT_LIMIT_ROWS: readonly LimitRow[] = [
  { stacks: 1, devices: 2_000, rate: 20 },
  { stacks: 8, devices: 250, rate: 20 },
  { stacks: 20, devices: 500, rate: 50 },
];

/** One command of every stack at once. */
export interface LimitStep {
  seconds: number;
  /** wall ÷ (the requests the step needs at least ÷ R). */
  ratio: number;
  sent: number;
  refused: number;
  failed: number;
}

/** One row measured on one code. */
export interface LimitFigure extends LimitRow {
  code: string;
  load: LoadAverage;
  up: LimitStep;
  refresh: LimitStep;
  /** A DeviceConfig over each fleet (`reportInterval` on every device), every `up` at once. */
  config?: LimitStep;
  /** Seconds of one stack's no-change `up` alone: the fixed cost of one command. */
  oneCommand?: number;
  /**
   * Seconds of every stack's no-change `up` at once: the fixed cost of K commands sharing the
   * machine (K engines, programs and providers starting together), which one stack alone hides.
   */
  everyCommand?: number;
}

/** What {@link measureLimitRow} measures besides the `up` and the refresh. */
export interface LimitSteps {
  /** A DeviceConfig over each fleet (default true; the 100,000-device run leaves it out). */
  readonly config?: boolean;
  /**
   * The stacks keep one pace, as on one machine (pace-store.ts); by default each paces as on a
   * machine of its own (a pipeline's jobs on separate runners), the harder case.
   */
  readonly oneMachine?: boolean;
}

/** The fleet program with a DeviceConfig over all its devices. */
function configuredFleetProgram(fleetName: string): string {
  return (
    deviceFleetProgram(fleetName) +
    [
      `new devplatform.DeviceConfig("site-config", {`,
      `  deviceIds: fleet.deviceIds.apply((ids) => Object.values(ids)),`,
      `  properties: { reportInterval: 900 },`,
      `});`,
      "",
    ].join("\n")
  );
}

/** `KxM@R,…` → rows. */
export function parseLimitRows(text: string): LimitRow[] {
  return text.split(",").map((part) => {
    const match = /^\s*(\d+)x(\d+)@(\d+(?:\.\d+)?)\s*$/.exec(part);
    if (!match) throw new Error(`--limit-rows takes KxM@R,… (e.g. 8x250@20), got "${part}"`);
    return { stacks: Number(match[1]), devices: Number(match[2]), rate: Number(match[3]) };
  });
}

/** Packs the package of the tree at `root` and installs it for projects: a context's node_modules. */
export function installTree(root: string, workDir: string, label: string): string {
  const run = (cmd: string, args: string[], cwd: string) =>
    execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  run("npm", ["run", "--silent", "build"], root);
  const packDir = path.join(workDir, `pack-${label}`);
  mkdirSync(packDir, { recursive: true });
  run("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", packDir], root);
  const tarball = readdirSync(packDir).find((f) => f.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack in ${root} produced no tarball`);
  const template = path.join(workDir, `template-${label}`);
  mkdirSync(template, { recursive: true });
  // This tree's toolchain template, with the package swapped for the other tree's.
  const manifest = JSON.parse(readFileSync(path.join(workDir, "template", "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  manifest.dependencies["pulumi-devplatform"] = `file:${path.join(packDir, tarball)}`;
  writeFileSync(path.join(template, "package.json"), JSON.stringify(manifest));
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], template);
  return path.join(template, "node_modules");
}

const hex = (n: number, width: number) => n.toString(16).toUpperCase().padStart(width, "0");

/** One command of every stack at once as a figure: wall ÷ (`least` requests ÷ `rate`), sent, refused, failed. */
export function limitStep(
  results: CommandResult[],
  seconds: number,
  least: number,
  rate: number,
  counters: Counters,
): LimitStep {
  const refused = refusedOf(counters);
  return {
    seconds,
    ratio: seconds / (least / rate),
    sent: counters.total,
    refused,
    failed: results.filter((r) => r.exitCode !== 0).length,
  };
}

export interface Counters {
  total: number;
  rateLimited?: Record<string, number>;
}

function refusedOf(counters: Counters): number {
  return Object.values(counters.rateLimited ?? {}).reduce((sum, n) => sum + n, 0);
}

/** Measures one row on one code (a context whose node_modules holds that code's package). */
export async function measureLimitRow(
  row: LimitRow,
  code: string,
  context: PulumiContext,
  steps: LimitSteps = {},
): Promise<LimitFigure> {
  const emulator = await startEmulator({ control: true, rateLimit: row.rate });
  const start = loadNow();
  try {
    const projects: PulumiProject[] = [];
    for (let k = 0; k < row.stacks; k += 1) {
      const devices = Array.from({ length: row.devices }, (_, i) => ({
        sn: `2D${hex(k, 4)}${hex(i, 6)}`,
        name: `limit-${k}-${i}`,
      }));
      projects.push(
        await PulumiProject.create(
          {
            name: `bench-limit-${code}-${k}`,
            program: deviceFleetProgram(`site-${k}`),
            files: { "fleet.json": JSON.stringify(devices) },
            config: { "devplatform:baseUrl": emulator.url },
            // Each stack paces as on a machine of its own unless the row is of one machine.
            ...(steps.oneMachine
              ? {}
              : { env: { DEVPLATFORM_PACE_DIR: mkdtempSync(path.join(os.tmpdir(), "bench-pace-")) } }),
          },
          { ...context, emulatorUrl: emulator.url },
        ),
      );
    }
    const all = async (command: (p: PulumiProject) => Promise<CommandResult>) => {
      await emulator.control.resetCounters();
      const started = performance.now();
      const results = await Promise.all(projects.map(command));
      return {
        results,
        seconds: (performance.now() - started) / 1000,
        counters: await emulator.control.counters(),
      };
    };
    const up = await all((p) => p.up());
    const adds = row.stacks * row.devices;
    const upStep = limitStep(up.results, up.seconds, adds, row.rate, up.counters);
    // One stack's no-change `up` alone: what any command of the fleet costs besides its requests.
    const [first] = projects;
    const oneCommand = first === undefined ? undefined : (await all(() => first.up())).seconds;
    const every = await all((p) => p.up());
    const everyCommand = every.seconds;
    console.log(
      `every stack's no-change up at once: ${everyCommand.toFixed(1)} s, ${every.counters.total} requests`,
    );
    const refresh = await all((p) => p.refresh());
    const searches = row.stacks * Math.ceil(row.devices / 100);
    const refreshStep = limitStep(refresh.results, refresh.seconds, searches, row.rate, refresh.counters);
    let configStep: LimitStep | undefined;
    if (steps.config ?? true) {
      for (const [k, project] of projects.entries()) project.setProgram(configuredFleetProgram(`site-${k}`));
      const config = await all((p) => p.up());
      // The requests the configuration needs at least: those the limit let through.
      const passed = config.counters.total - refusedOf(config.counters);
      configStep = limitStep(config.results, config.seconds, passed, row.rate, config.counters);
    }

    for (const failed of up.results.filter((r) => r.exitCode !== 0).slice(0, 1))
      console.log(
        `an up failed (${code}): ${failed.output
          .split("\n")
          .filter((l) => /error|429/i.test(l))
          .slice(0, 3)
          .join(" / ")}`,
      );
    return {
      ...row,
      code,
      load: { start, end: loadNow() },
      up: upStep,
      refresh: refreshStep,
      ...(configStep === undefined ? {} : { config: configStep }),
      oneCommand,
      everyCommand,
    };
  } finally {
    await emulator.stop();
  }
}
