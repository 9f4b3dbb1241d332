/**
 * The shape of bench/results.json, which `npm run bench` writes and `npm run bench:table` turns
 * into the documentation's tables (results-table.ts). Figures are seconds of wall time of one whole
 * CLI command, requests are the emulator's counters, and every group carries the load average
 * around it: the machine is shared, so read the ratios of figures measured side by side.
 */
import { loadavg } from "node:os";
import type { LimitFigure } from "./platform-limit";
import type { PluginStartFigures } from "./plugin-start";
import type { RpsLimitFigure } from "./rps-limit";

/** The contenders of the fleet suite, each measured at every step of one size. */
export const CONTENDERS = ["dynamic", "plugin", "noop", "shape", "devices"] as const;
export type ContenderKey = (typeof CONTENDERS)[number];

/** The fleet suite's steps, in the order they run. */
export const FLEET_STEPS = [
  "up (create)",
  "preview (no changes)",
  "refresh",
  "up (rename one)",
  "destroy",
] as const;
export type FleetStep = (typeof FLEET_STEPS)[number];

/** The RPS rows' contenders: the batch, N RpsProfiles, N no-op resources, one of the batch's shape. */
export const RPS_CONTENDERS = ["batch", "profiles", "noop", "shape"] as const;
export type RpsContenderKey = (typeof RPS_CONTENDERS)[number];

/** The RPS rows' steps, in the order they run. */
export const RPS_STEPS = [
  "up (create)",
  "preview (no changes)",
  "refresh",
  "up (change one)",
  "destroy",
] as const;
export type RpsStep = (typeof RPS_STEPS)[number];

/** One contender at one step. */
export interface StepFigure {
  seconds: number;
  /** Platform requests the step sent (the emulator's counters). */
  requests: number;
  /** Writes among them, by route. */
  writes?: Record<string, number>;
}

/** The 1-minute load average when a group of measurements began and ended. */
export interface LoadAverage {
  start: number;
  end: number;
}

/** The fleet suite at one size N. */
export interface FleetSizeFigures {
  devices: number;
  load: LoadAverage;
  steps: Partial<Record<FleetStep, Partial<Record<ContenderKey, StepFigure>>>>;
  /** State file bytes after the create, divided by N. */
  stateBytesPerDevice: Partial<Record<ContenderKey, number>>;
  latency?: { latencyMs: number; fleetUpSeconds: number; scriptSeconds: number; ratio: number };
}

/** The RPS rows at one size N (rps-suite.ts). */
export interface RpsSizeFigures {
  records: number;
  load: LoadAverage;
  steps: Partial<Record<RpsStep, Partial<Record<RpsContenderKey, StepFigure>>>>;
  /** State file bytes after the create, divided by N. */
  stateBytesPerRecord: Partial<Record<RpsContenderKey, number>>;
}

/** The fixed cost of one command in one language: a no-change `preview`, best of `runs`. */
export interface FixedCostFigure {
  /** The language and front-end, as the table names them. */
  label: string;
  runs: number;
  /** A program that declares nothing. */
  emptySeconds: number;
  /** A program with one Device (created before, so the preview finds no change). */
  oneDeviceSeconds: number;
}

/** A release archive of the plugin and its size. */
export interface ArchiveSize {
  file: string;
  bytes: number;
  /** The executable inside it, unpacked. */
  executableBytes?: number;
}

export interface BenchResults {
  date: string;
  machine: {
    cores: number;
    cpu: string;
    platform: string;
    node: string;
    pulumi: string;
    load: LoadAverage;
  };
  pluginStart?: PluginStartFigures & { load: LoadAverage; archive?: ArchiveSize };
  fixedCost?: { load: LoadAverage; languages: FixedCostFigure[] };
  fleets: FleetSizeFigures[];
  /** The commit the fleet rows, the fixed cost and the plugin's start measured. */
  fleetsCommit?: string;
  /** Below 2,000 and without `--fleet-only`: N Devices with default checkpoints and the rest. */
  engineFloor?: Record<string, unknown>;
  /** With `--limit`: K stacks sharing the platform's rate limit (platform-limit.ts). */
  platformLimit?: LimitFigure[];
  /** With `--limit-large`: 20 stacks × 5,000 devices, this code only. */
  platformLimitLarge?: LimitFigure[];
  /** With `--rps-only`: the RPS rows, per size, and the commit, date and load they measured at. */
  rps?: RpsResults;
}

/** The RPS rows of one `--rps-only` run. */
export interface RpsResults {
  commit: string;
  /** When the run began (ISO 8601); absent in results written before the rows kept their own. */
  date?: string;
  /** The machine's load over the whole run (each size has its own, too). */
  load?: LoadAverage;
  sizes: RpsSizeFigures[];
  limit?: RpsLimitFigure;
}

/**
 * results.json after a run that measured only the RPS rows: every other figure, and the date and
 * machine (with its load) of the run that measured them, as the file held them; the RPS rows carry
 * their own commit, date and load. Without an earlier file, the run's own date and machine stand.
 */
export function withRpsRun(
  previous: BenchResults | undefined,
  run: BenchResults,
  rps: RpsResults,
): BenchResults {
  return { ...(previous ?? run), rps };
}

/** The current 1-minute load average, rounded to hundredths. */
export function loadNow(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}
