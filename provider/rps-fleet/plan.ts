/**
 * The plan of an RPS batch, by serial number (compared without regard to case): records to add
 * (specified, or adopted when the platform has them already), records whose URL changed (specified
 * again: the platform's update in place), records to remove (deleted). Unchanged records cost
 * nothing. A pure function of what is applied and what is declared.
 */
import type { RpsEntries } from "./inputs";

/** One record whose URL changes. */
export interface PlannedUrlChange {
  /** The serial number as declared now. */
  readonly sn: string;
  readonly from: string;
  readonly to: string;
}

/** What an `up` of a batch does. */
export interface RpsFleetPlan {
  readonly adds: string[];
  readonly updates: PlannedUrlChange[];
  /** Applied and no longer declared, spelled as in state. */
  readonly removals: string[];
  readonly unchanged: number;
}

/** The applied record of `sn` (any case): its spelling in state and its URL. */
export function appliedOf(applied: RpsEntries, sn: string): { sn: string; profileUrl: string } | undefined {
  if (Object.hasOwn(applied, sn)) return { sn, profileUrl: applied[sn] as string };
  const key = sn.toUpperCase();
  const found = Object.keys(applied).find((each) => each.toUpperCase() === key);
  return found === undefined ? undefined : { sn: found, profileUrl: applied[found] as string };
}

/**
 * Whether `declared` holds exactly `applied`'s records, spelled alike and with the same URLs: the
 * no-change case (every preview of a batch that did not change), told with one lookup a record
 * instead of the case-blind plan below, which cost a no-change preview of 10,000 records about
 * 0.2 s of CPU a call.
 */
export function sameRecords(applied: Readonly<Record<string, unknown>>, declared: RpsEntries): boolean {
  const serials = Object.keys(applied);
  if (serials.length !== Object.keys(declared).length) return false;
  for (const sn of serials) {
    if (!Object.hasOwn(declared, sn) || declared[sn] !== applied[sn]) return false;
  }
  return true;
}

/** The plan from `applied` (the state's records) to `declared`. */
export function planRpsFleet(applied: RpsEntries, declared: RpsEntries): RpsFleetPlan {
  if (sameRecords(applied, declared))
    return { adds: [], updates: [], removals: [], unchanged: Object.keys(declared).length };
  const byKey = new Map(Object.entries(applied).map(([sn, url]) => [sn.toUpperCase(), url]));
  const adds: string[] = [];
  const updates: PlannedUrlChange[] = [];
  let unchanged = 0;
  const declaredKeys = new Set<string>();
  for (const [sn, to] of Object.entries(declared)) {
    declaredKeys.add(sn.toUpperCase());
    const from = byKey.get(sn.toUpperCase());
    if (from === undefined) adds.push(sn);
    else if (from !== to) updates.push({ sn, from, to });
    else unchanged += 1;
  }
  const removals = Object.keys(applied).filter((sn) => !declaredKeys.has(sn.toUpperCase()));
  return { adds, updates, removals, unchanged };
}

/** Whether the plan writes anything. */
export function planChanges(plan: RpsFleetPlan): boolean {
  return plan.adds.length + plan.updates.length + plan.removals.length > 0;
}
