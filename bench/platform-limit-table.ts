/**
 * The platform-limit table of the documentation (see platform-limit.ts): per row and code, the
 * `up` of every stack at once (wall ÷ the limit's best, with and without one command's fixed cost),
 * the refresh of every stack at once and a DeviceConfig over every fleet at once (wall), requests
 * refused ÷ sent, and failed commands.
 */
import type { LimitFigure, LimitStep } from "./platform-limit";

const thousands = (n: number): string => n.toLocaleString("en-US");
const percent = (step: LimitStep): string =>
  step.sent === 0
    ? "–"
    : `${((100 * step.refused) / step.sent).toFixed(1)}% (${thousands(step.refused)} of ${thousands(step.sent)})`;

/** (wall − fixed) ÷ floor, with one stack's fixed cost, then every stack's at once. */
function netOf(f: LimitFigure, floor: number): string {
  // After a failed up, the "no-change" up still had the failed work to do: no fixed cost then.
  if (f.up.failed > 0) return "–";
  const net = (fixed: number | undefined): string | undefined =>
    fixed === undefined
      ? undefined
      : `${((f.up.seconds - fixed) / floor).toFixed(2)} (fixed ${fixed.toFixed(1)} s)`;
  const one = net(f.oneCommand);
  const every = f.stacks > 1 ? net(f.everyCommand) : undefined;
  return [one, every].filter((part) => part !== undefined).join("; ") || "–";
}

/** The 100,000-device run's table (`--limit-large`), or undefined without figures. */
export function largeLimitTable(figures: readonly LimitFigure[] | undefined): string | undefined {
  if (figures === undefined || figures.length === 0) return undefined;
  const lines = [
    "**100,000 devices** (`npm run bench -- --limit-large`: 20 stacks × 5,000 devices, one DeviceFleet " +
      "each, all `up`s started at once against an emulator limited to R requests a second, then a refresh " +
      "of every stack at once; no DeviceConfig. Columns as above; `after` each stack pacing as on a machine of " +
      "its own, `one-machine-look` the stacks keeping one pace, as on one machine, with the code of the " +
      "`one-machine-look` rows of the history in bench/README.md)",
    "",
    "| K × M at R | code | up: wall ÷ (K·M÷R) | up: (wall − fixed) ÷ (K·M÷R) | up: refused ÷ sent | failed ups | " +
      "refresh: wall | refresh: refused ÷ sent | failed refreshes | load |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const f of figures) {
    const floor = (f.stacks * f.devices) / f.rate;
    lines.push(
      `| ${f.stacks} × ${thousands(f.devices)} at ${f.rate}/s | ${f.code} | ${f.up.ratio.toFixed(2)} (${f.up.seconds.toFixed(0)} s) | ` +
        `${netOf(f, floor)} | ${percent(f.up)} | ${f.up.failed} of ${f.stacks} | ${f.refresh.seconds.toFixed(0)} s | ` +
        `${percent(f.refresh)} | ${f.refresh.failed} of ${f.stacks} | ${f.load.start.toFixed(1)} → ${f.load.end.toFixed(1)} |`,
    );
  }
  return lines.join("\n");
}

/**
 * The figures a user reads: per K × M at R, the code before the pacing and the figures measured
 * last (the current pacing); the experiments between them stay in the history (bench/README.md).
 */
export function latestLimitFigures(figures: readonly LimitFigure[]): LimitFigure[] {
  const key = (f: LimitFigure) => `${f.stacks}x${f.devices}@${f.rate}`;
  const last = new Map<string, LimitFigure>();
  for (const f of figures) last.set(key(f), f);
  return figures.filter((f) => f.code === "before" || last.get(key(f)) === f);
}

const LIMIT_COLUMNS =
  "(K stacks × M devices, one DeviceFleet each, " +
  "all `up`s started at once against an emulator limited to R requests a second; then a refresh of " +
  "every stack at once; then a DeviceConfig over each fleet, every `up` at once. For the `up`: wall ÷ " +
  "(K·M ÷ R), and (wall − fixed cost) ÷ (K·M ÷ R), the fixed cost being one stack's no-change `up` " +
  "alone, and after it every stack's no-change `up` at once (K engines, programs and providers " +
  "starting together on the machine); for the refresh and the configuration, wall in seconds.";

/** The guide's table: `before` and the latest figures per row, or undefined without figures. */
export function platformLimitTable(figures: readonly LimitFigure[] | undefined): string | undefined {
  if (figures === undefined || figures.length === 0) return undefined;
  const latest = latestLimitFigures(figures);
  const codes = [...new Set(latest.map((f) => f.code).filter((code) => code !== "before"))];
  return limitTable(
    latest,
    "**The platform's rate limit, shared by K stacks** " +
      LIMIT_COLUMNS +
      " `before` is the code before the pacing; " +
      codes.map((code) => `\`${code}\``).join(", ") +
      " the latest figures of the pacing, the stacks keeping one pace, as on one machine. The experiments " +
      "between them are in [the bench's results history](../../bench/README.md).)",
  );
}

/** Every figure of bench/results.json, in the order measured: the history, or undefined. */
export function platformLimitHistory(figures: readonly LimitFigure[] | undefined): string | undefined {
  if (figures === undefined || figures.length === 0) return undefined;
  return limitTable(
    figures,
    "**The platform's rate limit, shared by K stacks: every run** " +
      LIMIT_COLUMNS +
      " `before` is the code " +
      "before the pacing, `after` the code with it, measured one after the other in one run, each stack pacing as " +
      "on a machine of its own; `after-4272cfc` is measured later after the model-read fix, and `one-machine` later " +
      "still with the stacks keeping one pace, as on one machine; `one-machine-full-window` with no second decrease " +
      "while the platform's window may be full, and `one-machine-look` with a request waiting for its " +
      "turn reading the pace without its lock; `one-machine-9b25dac` is that code again and `one-machine-settle` " +
      "the climb's flat settled when a refusal episode ends, measured one after the other in one " +
      "run, and the 20-stack pair again (`-2`) in a second run; `one-machine-5293c86` and `one-machine-token` " +
      "later, one after the other in one run)",
  );
}

function limitTable(figures: readonly LimitFigure[], title: string): string {
  const lines = [
    title,
    "",
    "| K × M at R | code | up: wall ÷ (K·M÷R) | up: (wall − fixed) ÷ (K·M÷R) | up: refused ÷ sent | failed ups | " +
      "refresh: wall | refresh: refused ÷ sent | config: wall | config: refused ÷ sent | failed refreshes, configs | load |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  // A row's figures together, in the order measured (`--limit-append` adds a row's later figures).
  const size = (f: LimitFigure) => (f.stacks * f.devices * 1_000 + f.rate) * 1_000 + f.stacks;
  const ordered = [...figures].sort((a, b) => size(a) - size(b));
  for (const f of ordered) {
    const floor = (f.stacks * f.devices) / f.rate;
    const net = netOf(f, floor);
    const config = f.config;
    lines.push(
      `| ${f.stacks} × ${thousands(f.devices)} at ${f.rate}/s | ${f.code} | ${f.up.ratio.toFixed(2)} (${f.up.seconds.toFixed(0)} s) | ` +
        `${net} | ${percent(f.up)} | ${f.up.failed} of ${f.stacks} | ${f.refresh.seconds.toFixed(0)} s | ` +
        `${percent(f.refresh)} | ${config === undefined ? "–" : `${config.seconds.toFixed(0)} s`} | ` +
        `${config === undefined ? "–" : percent(config)} | ${f.refresh.failed}, ${config?.failed ?? "–"} of ${f.stacks} | ` +
        `${f.load.start.toFixed(1)} → ${f.load.end.toFixed(1)} |`,
    );
  }
  return lines.join("\n");
}
