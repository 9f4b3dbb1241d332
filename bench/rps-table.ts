/**
 * The RPS rows' tables, generated from bench/results.json: per size, the batch (RpsFleet) against N
 * RpsProfiles, N no-op resources (the engine's floor) and one no-op resource of the batch's shape,
 * step by step with requests and state bytes per record; then the limit table's batch row.
 */
import type { LimitStep } from "./platform-limit";
import {
  RPS_STEPS,
  type BenchResults,
  type RpsContenderKey,
  type RpsSizeFigures,
  type StepFigure,
} from "./results";
import type { RpsLimitFigure } from "./rps-limit";

const thousands = (n: number): string => n.toLocaleString("en-US");
const seconds = (s: number | undefined): string => (s === undefined ? "–" : `${s.toFixed(1)} s`);
const row = (cells: string[]): string => `| ${cells.join(" | ")} |`;

function ratio(a: StepFigure | undefined, b: StepFigure | undefined): string {
  return a && b && b.seconds > 0 ? (a.seconds / b.seconds).toFixed(2) : "–";
}

function requests(figure: StepFigure | undefined): string {
  if (!figure) return "–";
  const writes = Object.values(figure.writes ?? {}).reduce((sum, w) => sum + w, 0);
  return writes === 0
    ? thousands(figure.requests)
    : `${thousands(figure.requests)} (${thousands(writes)} write${writes === 1 ? "" : "s"})`;
}

function sizeTable(size: RpsSizeFigures, commit: string): string {
  const n = thousands(size.records);
  const withProfiles = RPS_STEPS.some((step) => size.steps[step]?.profiles !== undefined);
  const header = [
    "step",
    `RpsFleet of ${n}`,
    ...(withProfiles ? [`${n} RpsProfiles`] : []),
    `${n} no-op resources (floor)`,
    "one no-op resource of the batch's shape",
    "RpsFleet ÷ floor",
    "RpsFleet ÷ shape",
    "requests, RpsFleet",
    ...(withProfiles ? ["requests, RpsProfiles"] : []),
  ];
  const lines = [
    `RPS records, N = ${n} (commit ${commit}; load average ${size.load.start.toFixed(1)} → ${size.load.end.toFixed(1)}):`,
    "",
    row(header),
    row(header.map(() => "---")),
  ];
  for (const step of RPS_STEPS) {
    const s = size.steps[step];
    if (!s) continue;
    lines.push(
      row([
        `\`${step}\``,
        seconds(s.batch?.seconds),
        ...(withProfiles ? [seconds(s.profiles?.seconds)] : []),
        seconds(s.noop?.seconds),
        seconds(s.shape?.seconds),
        ratio(s.batch, s.noop),
        ratio(s.batch, s.shape),
        requests(s.batch),
        ...(withProfiles ? [requests(s.profiles)] : []),
      ]),
    );
  }
  const bytes = (key: RpsContenderKey) => {
    const b = size.stateBytesPerRecord[key];
    return b === undefined ? "–" : thousands(b);
  };
  lines.push(
    row([
      "state bytes per record",
      bytes("batch"),
      ...(withProfiles ? [bytes("profiles")] : []),
      bytes("noop"),
      bytes("shape"),
      "",
      "",
      "",
      ...(withProfiles ? [""] : []),
    ]),
  );
  return lines.join("\n");
}

function limitCells(step: LimitStep): string[] {
  const share = step.sent > 0 ? ((100 * step.refused) / step.sent).toFixed(1) : "0.0";
  return [
    seconds(step.seconds),
    step.ratio.toFixed(2),
    `${thousands(step.refused)} of ${thousands(step.sent)} (${share} %)`,
    String(step.failed),
  ];
}

function limitTable(limit: RpsLimitFigure): string {
  const header = ["step", "wall", "÷ the limit's floor", "refused", "failed"];
  return [
    `Batches at the platform's rate limit: ${limit.stacks} × an RpsFleet of ${thousands(limit.records)} records at ` +
      `${limit.rate} requests/s (load average ${limit.load.start.toFixed(1)} → ${limit.load.end.toFixed(1)}):`,
    "",
    row(header),
    row(header.map(() => "---")),
    row(["`up` (every stack at once)", ...limitCells(limit.up)]),
    row(["refresh (every stack at once)", ...limitCells(limit.refresh)]),
  ].join("\n");
}

/** The RPS rows' tables, or undefined when results.json holds none. */
export function rpsTables(results: BenchResults): string | undefined {
  const rps = results.rps;
  if (!rps) return undefined;
  const parts = rps.sizes.map((size) => sizeTable(size, rps.commit));
  if (rps.limit) parts.push(limitTable(rps.limit));
  return parts.join("\n\n");
}
