/**
 * The documentation's benchmark tables, generated from bench/results.json (never typed): per size,
 * the dynamic DeviceFleet and the plugin's DeviceFleet against the engine's no-op floor step by
 * step, with requests and state bytes per device; the fixed cost of one command per language; the
 * plugin's start. A pure function of the results, so a unit test can hold the file to it.
 */
import {
  FLEET_STEPS,
  type BenchResults,
  type ContenderKey,
  type FleetSizeFigures,
  type LoadAverage,
  type StepFigure,
} from "./results";
import { largeLimitTable, platformLimitTable } from "./platform-limit-table";
import { rpsTables } from "./rps-table";

const thousands = (n: number): string => n.toLocaleString("en-US");
const seconds = (s: number | undefined): string => (s === undefined ? "–" : `${s.toFixed(1)} s`);
const load = (l: LoadAverage): string => `load average ${l.start.toFixed(1)} → ${l.end.toFixed(1)}`;

function ratio(a: StepFigure | undefined, b: StepFigure | undefined): string {
  return a && b && b.seconds > 0 ? (a.seconds / b.seconds).toFixed(2) : "–";
}

function requests(figure: StepFigure | undefined): string {
  if (!figure) return "–";
  const writes = Object.values(figure.writes ?? {}).reduce((sum, w) => sum + w, 0);
  if (writes === 0) return thousands(figure.requests);
  return `${thousands(figure.requests)} (${thousands(writes)} write${writes === 1 ? "" : "s"})`;
}

const row = (cells: string[]): string => `| ${cells.join(" | ")} |`;

function fleetTable(size: FleetSizeFigures): string {
  const n = thousands(size.devices);
  const has = (key: ContenderKey) => FLEET_STEPS.some((step) => size.steps[step]?.[key] !== undefined);
  const withDevices = has("devices");
  const withShape = has("shape");
  const header = [
    "step",
    `dynamic DeviceFleet of ${n}`,
    `plugin DeviceFleet of ${n}`,
    `${n} no-op resources (floor)`,
    ...(withShape ? ["one no-op resource of the fleet's shape"] : []),
    ...(withDevices ? [`${n} Devices`] : []),
    "dynamic ÷ floor",
    "plugin ÷ floor",
    "requests, dynamic",
    "requests, plugin",
  ];
  const lines = [`N = ${n} (${load(size.load)}):`, "", row(header), row(header.map(() => "---"))];
  for (const step of FLEET_STEPS) {
    const s = size.steps[step];
    if (!s) continue;
    lines.push(
      row([
        `\`${step}\``,
        seconds(s.dynamic?.seconds),
        seconds(s.plugin?.seconds),
        seconds(s.noop?.seconds),
        ...(withShape ? [seconds(s.shape?.seconds)] : []),
        ...(withDevices ? [seconds(s.devices?.seconds)] : []),
        ratio(s.dynamic, s.noop),
        ratio(s.plugin, s.noop),
        requests(s.dynamic),
        requests(s.plugin),
      ]),
    );
  }
  const bytes = (key: ContenderKey) => {
    const b = size.stateBytesPerDevice[key];
    return b === undefined ? "–" : thousands(b);
  };
  lines.push(
    row([
      "state bytes per device",
      bytes("dynamic"),
      bytes("plugin"),
      bytes("noop"),
      ...(withShape ? [bytes("shape")] : []),
      ...(withDevices ? [bytes("devices")] : []),
      "",
      "",
      "",
      "",
    ]),
  );
  return lines.join("\n");
}

function fixedCostTable(results: BenchResults): string | undefined {
  const fixed = results.fixedCost;
  if (!fixed || fixed.languages.length === 0) return undefined;
  const runs = fixed.languages[0]?.runs ?? 0;
  const lines = [
    `The fixed cost of one command: a no-change \`preview\`, best of ${runs} (${load(fixed.load)}):`,
    "",
    row(["language, front-end", "empty program", "one Device"]),
    row(["---", "---", "---"]),
    ...fixed.languages.map((l) => row([l.label, seconds(l.emptySeconds), seconds(l.oneDeviceSeconds)])),
  ];
  return lines.join("\n");
}

function pluginStartTable(results: BenchResults): string | undefined {
  const start = results.pluginStart;
  if (!start) return undefined;
  const mib = (bytes: number | undefined) =>
    bytes === undefined ? "–" : `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  const lines = [
    `The plugin's start, exec → port line, best and median of ${start.runs} alternating runs (${load(start.load)}):`,
    "",
    row(["plugin", "best", "median", "size"]),
    row(["---", "---", "---", "---"]),
    row([
      "release executable (self-contained)",
      `${start.executableBestMs} ms`,
      `${start.executableMedianMs} ms`,
      start.archive
        ? `${mib(start.archive.executableBytes)} (\`${start.archive.file}\`: ${mib(start.archive.bytes)})`
        : "–",
    ]),
    row(["npm launcher (Node.js 22)", `${start.launcherBestMs} ms`, `${start.launcherMedianMs} ms`, ""]),
  ];
  return lines.join("\n");
}

/** A question's heading and, when known, the commit its figures measured. */
function heading(question: string, commit: string | undefined): string {
  return `### ${question}` + (commit === undefined ? "" : `\n\nMeasured at commit ${commit}.`);
}

/** The Markdown that goes between the table markers: one heading per question a user asks. */
export function renderTables(results: BenchResults): string {
  const m = results.machine;
  const intro =
    `Generated by \`npm run bench:table\` from \`bench/results.json\` (${results.date.slice(0, 10)}; ` +
    `${m.cores} cores, ${m.cpu}, ${m.platform}, Node.js ${m.node}, Pulumi ${m.pulumi}; ` +
    `${load(m.load)} over the run). Seconds of wall time of one whole CLI command, file backend; ` +
    `requests from the emulator's counters.`;
  const limit = platformLimitTable(results.platformLimit);
  const large = largeLimitTable(results.platformLimitLarge);
  const rps = rpsTables(results);
  const fixed = fixedCostTable(results);
  const start = pluginStartTable(results);
  const parts = [
    intro,
    heading("How fast is a fleet?", results.fleetsCommit),
    ...results.fleets.map(fleetTable),
    fixed === undefined && start === undefined
      ? undefined
      : heading("How long does the first command take?", results.fleetsCommit),
    fixed,
    start,
    limit === undefined && large === undefined
      ? undefined
      : heading("How many stacks can share one rate limit?", undefined),
    limit,
    large,
    rps === undefined ? undefined : heading("How fast is a batch of RPS records?", results.rps?.commit),
    rps,
  ].filter((p): p is string => p !== undefined);
  return parts.join("\n\n");
}
