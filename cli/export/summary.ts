/**
 * What `export` prints on stdout when it has written the project: what was exported, what reading
 * it cost, and the exact commands that bring it under Pulumi. The client secret is never in it:
 * the `pulumi config set --secret` line asks for it.
 */
import path from "node:path";
import type { ConfigGroup, InventoryEntry, RpsEntry } from "../../inventory";
import { ownerLines } from "./owners";

/** What the summary reports. */
export interface SummaryInput {
  readonly out: string;
  readonly style: string;
  readonly inventory: readonly InventoryEntry[];
  /** Devices in the application before filtering. */
  readonly listed: number;
  readonly filtered: boolean;
  readonly rps: readonly RpsEntry[] | undefined;
  readonly configGroups: readonly ConfigGroup[] | undefined;
  readonly files: readonly string[];
  /** E.g. `1 token, 3 device searches`. */
  readonly requests: string;
  readonly requestCount: number;
  readonly seconds: number;
  readonly baseUrl: string;
  readonly clientId: string;
  /** Set when the API version was chosen, so that the stack uses it too. */
  readonly apiVersion: string | undefined;
  /** The working directory the `cd` line is relative to. */
  readonly cwd: string;
  /** Stacks whose owner tags the exported devices carry → how many (see owners.ts). */
  readonly owners?: ReadonlyMap<string, number>;
  /** Whether `--take-over` wrote the take-over of those devices. */
  readonly takeOver?: boolean;
}

/** A word safe in a POSIX shell as it is, or the text in single quotes. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

function devicesLine(input: SummaryInput): string {
  const projects = new Set(input.inventory.flatMap((e) => (e.project === undefined ? [] : [e.project])));
  const unassigned = input.inventory.filter((e) => e.project === undefined).length;
  const of = input.filtered ? ` (of ${input.listed.toLocaleString("en-US")} in the application)` : "";
  const without = unassigned > 0 ? `, ${unassigned.toLocaleString("en-US")} without a project` : "";
  return `  ${plural(input.inventory.length, "device")}${of} in ${plural(projects.size, "project")}${without}`;
}

/** The summary and next steps, `\n`-terminated. */
export function summaryText(input: SummaryInput): string {
  const relative = path.relative(input.cwd, input.out);
  const dir =
    relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : input.out;
  const lines = [
    `Wrote ${dir} (style ${input.style}):`,
    devicesLine(input),
    ...(input.rps ? [`  ${plural(input.rps.length, "RPS record")}`] : []),
    ...(input.configGroups
      ? [
          `  ${plural(input.configGroups.length, "configuration")} (groups of devices with identical settings, ` +
            `${plural(
              input.configGroups.reduce((n, g) => n + g.serials.length, 0),
              "device",
            )})`,
        ]
      : []),
    ...ownerLines(input.owners ?? new Map(), input.takeOver === true),
    `  files: ${input.files.join(", ")}`,
    `Exported in ${input.seconds.toFixed(1)} s with ${plural(input.requestCount, "request")} (${input.requests}).`,
    "",
    "Next steps:",
    `  cd ${shellQuote(dir)} && npm install`,
    "  pulumi stack init dev",
    `  pulumi config set devplatform:baseUrl ${shellQuote(input.baseUrl)}`,
    `  pulumi config set devplatform:clientId ${shellQuote(input.clientId)}`,
    "  pulumi config set --secret devplatform:clientSecret   # asks for the client secret",
    ...(input.apiVersion
      ? [`  pulumi config set devplatform:apiVersion ${shellQuote(input.apiVersion)}`]
      : []),
    "  pulumi preview   # the devices are adopted by serial number",
    "  pulumi up",
  ];
  return `${lines.join("\n")}\n`;
}
