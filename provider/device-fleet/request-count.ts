/**
 * The requests an `up` of a fleet makes, derived from its plan the way its steps carry it out
 * (remove-devices.ts, add-devices.ts, update-devices.ts), so that a preview can say what the `up` will cost against the plan's daily request quota:
 * the lookups (`lookup.ts`: one request per device for a few, else the paged search of the
 * application), one write per add, update and delete (plus a PUT for an add that declares a
 * tslVersion), and the reads that confirm (a changed project; the model of devices just added).
 * Token requests are not counted: the platform's quota counts API requests, and its token endpoint
 * is not one of them (see the emulator's README).
 */
import { settingsOf, type FleetEntries, type FleetSettings } from "./inputs";
import { FEW } from "./lookup";
import type { FleetPlan } from "./plan";
import type { FleetLedger } from "./state";
import { PAGE_SIZE } from "../shared/pages";
import type { Inputs } from "../shared/input-checks";

/** The figure of a plan, by kind. */
export interface RequestFigure {
  /** Searches and GETs that find the devices to change. */
  readonly lookups: number;
  /** POST, PUT and DELETE. */
  readonly writes: number;
  /** Reads after writes: a changed project confirmed, the model of devices just added. */
  readonly confirms: number;
  readonly total: number;
}

/** How an add that is already on the platform is adopted: no write, a PUT, or a PUT and a GET. */
export type Adoption = "unchanged" | "update" | "retag";

/** What the figure assumes about the platform. */
export interface FigureBasis {
  /** Devices in the application before the `up` (pages of 100 for the searches). */
  readonly applicationSize: number;
  /** Adds already on the platform, by upper-case serial number (the others are added). */
  readonly onPlatform?: ReadonlyMap<string, Adoption>;
  /**
   * The `up` writes this stack's owner tag: the models of the devices it adds are read from the
   * devices carrying the tag, the fleet's own, not from the whole application (see add-devices.ts, `completeInfo`).
   */
  readonly ownerTag?: boolean;
}

/** Requests of `findDevices` for `wanted` devices in an application of `size` (full pages). */
export function lookupRequests(wanted: number, size: number): number {
  if (wanted === 0) return 0;
  if (wanted <= FEW) return wanted;
  const pages = Math.ceil(size / PAGE_SIZE);
  // Page 1 comes first in any case; then the other pages, or one request per device when fewer.
  return pages - 1 > wanted ? 1 + wanted : Math.max(1, pages);
}

/** Managed devices recorded without their model (an `up` stopped before it read them). */
export function devicesWithoutInfo(ledger: FleetLedger): string[] {
  return ledger.serials().filter((sn) => ledger.infoOf(sn)?.model === undefined);
}

/** The requests of an `up` that carries out `plan` (RPS take-overs not included: see the message). */
export function plannedRequests(
  plan: FleetPlan,
  declared: FleetEntries,
  ledger: FleetLedger,
  settings: Pick<FleetSettings, "onRemove">,
  basis: FigureBasis,
): RequestFigure {
  let size = basis.applicationSize;
  let lookups = 0;
  let writes = 0;
  let confirms = 0;
  const removals = settings.onRemove === "release" ? 0 : plan.removals.length;
  lookups += lookupRequests(removals, size);
  writes += removals;
  size -= removals;

  if (plan.adds.length > 0) {
    lookups += lookupRequests(plan.adds.length, size);
    let added = 0;
    for (const sn of plan.adds) {
      const adoption = basis.onPlatform?.get(sn.toUpperCase());
      if (adoption === undefined) {
        added += 1;
        // An add, and a PUT for a declared tslVersion (Add a Device does not take it).
        writes += declared[sn]?.tslVersion === undefined ? 1 : 2;
      } else if (adoption !== "unchanged") {
        writes += 1;
        if (adoption === "retag") confirms += 1;
      }
    }
    size += added;
    const listed = basis.ownerTag ? ledger.size + plan.adds.length : size;
    confirms += lookupRequests(added + devicesWithoutInfo(ledger).length, listed);
  }

  // Devices without this stack's owner tag are read first, then given it (the unchanged ones by a PUT).
  lookups += lookupRequests(plan.ownerReads.length, size);
  writes += plan.updates.length + plan.marks.length;
  confirms += plan.updates.filter((u) => u.fields.includes("project")).length;
  return { lookups, writes, confirms, total: lookups + writes + confirms };
}

/** `42 requests (2 lookups, 40 writes, 0 confirmations)`. */
export function describeFigure(figure: RequestFigure): string {
  const n = (value: number, word: string) =>
    `${value.toLocaleString("en-US")} ${word}${value === 1 ? "" : "s"}`;
  return (
    `${n(figure.total, "request")} (${n(figure.lookups, "lookup")}, ${n(figure.writes, "write")}, ` +
    `${n(figure.confirms, "confirmation")})`
  );
}

/** `; its up makes 42 requests (…)`: the figure of a plan, for the preview message. */
export function figureNote(
  plan: FleetPlan,
  entries: FleetEntries,
  ledger: FleetLedger,
  inputs: Inputs,
  basis: FigureBasis,
) {
  return `; its \`up\` makes ${describeFigure(plannedRequests(plan, entries, ledger, settingsOf(inputs), basis))}`;
}
