/**
 * The platform-limit table's batch row: K stacks of one RpsFleet of M records each, their `up`s
 * started at once against an emulator limited to R requests a second, then a refresh of every stack
 * at once. K·M records at R a second take K·M ÷ R seconds at best, so the figure is wall ÷ (K·M ÷ R)
 * (for the refresh: ÷ its listings, ⌈M/100⌉ a stack, at R), with the share of requests the limit
 * refused and the `up`s that failed (the goal: none).
 */
import { mkdtempSync } from "node:fs";
import * as os from "node:os";
import path from "node:path";
import { startEmulator } from "../emulator";
import { PulumiProject, type CommandResult, type PulumiContext } from "../test/e2e/support/pulumi-project";
import { limitStep, type LimitStep } from "./platform-limit";
import { loadNow, type LoadAverage } from "./results";
import { RPS_BATCH_PROGRAM, rpsRecordsFile } from "./rps-programs";

/** One batch row: K stacks × M records at R requests a second. */
export interface RpsLimitRow {
  readonly stacks: number;
  readonly records: number;
  readonly rate: number;
}

/** The default batch row: 1 × 2,000 at 20/s, beside the fleet's 1 × 2,000 devices at 20/s. */
export const DEFAULT_RPS_LIMIT_ROW: RpsLimitRow = { stacks: 1, records: 2_000, rate: 20 };

/** One batch row measured. */
export interface RpsLimitFigure extends RpsLimitRow {
  load: LoadAverage;
  up: LimitStep;
  refresh: LimitStep;
}

/** `KxM@R` → a row. */
export function parseRpsLimitRow(text: string): RpsLimitRow {
  const match = /^\s*(\d+)x(\d+)@(\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!match) throw new Error(`--rps-limit takes KxM@R (e.g. 1x2000@20), got "${text}"`);
  return { stacks: Number(match[1]), records: Number(match[2]), rate: Number(match[3]) };
}

/** Measures the batch row with this tree's package. */
export async function measureRpsLimitRow(row: RpsLimitRow, context: PulumiContext): Promise<RpsLimitFigure> {
  const emulator = await startEmulator({ control: true, rateLimit: row.rate });
  const start = loadNow();
  try {
    const projects: PulumiProject[] = [];
    for (let k = 0; k < row.stacks; k += 1) {
      projects.push(
        await PulumiProject.create(
          {
            name: `bench-rps-limit-${k}`,
            program: RPS_BATCH_PROGRAM,
            files: {
              "rps.json": rpsRecordsFile(row.records, `2E${k.toString(16).toUpperCase().padStart(2, "0")}`),
            },
            config: { "devplatform:baseUrl": emulator.url },
            // Each stack paces as on a machine of its own: the harder case.
            env: { DEVPLATFORM_PACE_DIR: mkdtempSync(path.join(os.tmpdir(), "bench-pace-")) },
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
    for (const failed of up.results.filter((r) => r.exitCode !== 0).slice(0, 1))
      console.log(
        `an up failed: ${failed.output
          .split("\n")
          .filter((l) => /error|429/i.test(l))
          .slice(0, 3)
          .join(" / ")}`,
      );
    const refresh = await all((p) => p.refresh());
    return {
      ...row,
      load: { start, end: loadNow() },
      up: limitStep(up.results, up.seconds, row.stacks * row.records, row.rate, up.counters),
      refresh: limitStep(
        refresh.results,
        refresh.seconds,
        row.stacks * Math.ceil(row.records / 100),
        row.rate,
        refresh.counters,
      ),
    };
  } finally {
    await emulator.stop();
  }
}
