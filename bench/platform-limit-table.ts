/**
 * The platform-limit table of the documentation (see platform-limit.ts): per row and code, the
 * `up` of every stack at once and the refresh of every stack at once, as wall ÷ the limit's best,
 * requests refused ÷ sent, and failed commands.
 */
import type { LimitFigure, LimitStep } from "./platform-limit";

const thousands = (n: number): string => n.toLocaleString("en-US");
const percent = (step: LimitStep): string =>
  step.sent === 0
    ? "–"
    : `${((100 * step.refused) / step.sent).toFixed(1)}% (${thousands(step.refused)} of ${thousands(step.sent)})`;

/** The table, or undefined without figures. */
export function platformLimitTable(figures: readonly LimitFigure[] | undefined): string | undefined {
  if (figures === undefined || figures.length === 0) return undefined;
  const lines = [
    "**The platform's rate limit, shared by K stacks** (K stacks × M devices, one DeviceFleet each, " +
      "all `up`s started at once against an emulator limited to R requests a second, then a refresh of " +
      "every stack at once; wall ÷ (K·M ÷ R) for the `up`, ÷ (K·⌈M/100⌉ ÷ R) for the refresh; " +
      "`before` is the code before the pacing, `after` this code, measured one after the other in one run)",
    "",
    "| K × M at R | code | up: wall ÷ (K·M÷R) | up: refused ÷ sent | failed ups | refresh: wall ÷ best | refresh: refused ÷ sent | failed refreshes | load |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const f of figures) {
    lines.push(
      `| ${f.stacks} × ${thousands(f.devices)} at ${f.rate}/s | ${f.code} | ${f.up.ratio.toFixed(2)} (${f.up.seconds.toFixed(0)} s) | ` +
        `${percent(f.up)} | ${f.up.failed} of ${f.stacks} | ${f.refresh.ratio.toFixed(2)} (${f.refresh.seconds.toFixed(0)} s) | ` +
        `${percent(f.refresh)} | ${f.refresh.failed} of ${f.stacks} | ${f.load.start.toFixed(1)} → ${f.load.end.toFixed(1)} |`,
    );
  }
  return lines.join("\n");
}
