/**
 * The plan of a fleet, by serial number: which devices to add, which to update with one PUT of
 * their whole declared state (a changed project too: it is a tag, changed in place, so the
 * deviceId and the configuration stay), and which to remove. Unchanged devices cost nothing.
 * A pure function of what is applied and what is declared.
 */
import { changedFields, UPDATABLE_FIELDS } from "../device/desired";
import type { FleetEntries } from "./inputs";
import type { FleetLedger } from "./state";

/** One device's change. */
export interface PlannedUpdate {
  /** The serial number as declared now. */
  readonly sn: string;
  /** The fields that differ: name, description, project, tags, tslVersion. */
  readonly fields: string[];
}

/** What an `up` of a fleet does. */
export interface FleetPlan {
  /** Declared and not managed yet: added, or adopted when already in the application. */
  readonly adds: string[];
  /** Managed and declared with other values (another project included): one PUT each. */
  readonly updates: PlannedUpdate[];
  /** Managed and no longer declared (spelled as in state): deleted, or released. */
  readonly removals: string[];
  /**
   * Managed and declared as they are, but not known to carry this stack's owner tag (managed before
   * owner tags were written): one PUT each gives it, after a read finds no other stack's tag.
   */
  readonly marks: string[];
  /** Managed and declared as they are (owner tag included). */
  readonly unchanged: number;
  /** The updates and marks whose device is read first for another stack's owner tag. */
  readonly ownerReads: string[];
}

/**
 * The plan from the ledger (what is applied) to the declared entries; `marker`, this stack's owner
 * tag (undefined outside a deployment), is given to every managed device that lacks it.
 */
export function planFleet(ledger: FleetLedger, declared: FleetEntries, marker?: string): FleetPlan {
  const adds: string[] = [];
  const updates: PlannedUpdate[] = [];
  const marks: string[] = [];
  const ownerReads: string[] = [];
  let unchanged = 0;
  const declaredKeys = new Set<string>();
  for (const [sn, entry] of Object.entries(declared)) {
    declaredKeys.add(sn.toUpperCase());
    const applied = ledger.appliedOf(sn);
    if (ledger.deviceIdOf(sn) === undefined || applied === undefined) {
      adds.push(sn);
    } else {
      const fields = changedFields(applied, entry, UPDATABLE_FIELDS);
      const unmarked = ledger.needsMarker(sn, marker);
      if (unmarked) ownerReads.push(sn);
      if (fields.length > 0) updates.push({ sn, fields });
      else if (unmarked) marks.push(sn);
      else unchanged += 1;
    }
  }
  const removals = ledger.serials().filter((sn) => !declaredKeys.has(sn.toUpperCase()));
  return { adds, updates, removals, marks, unchanged, ownerReads };
}

/** How many devices the plan writes to or forgets: the steps of its `up`'s progress line. */
export function planSize(plan: FleetPlan): number {
  return plan.removals.length + plan.adds.length + plan.updates.length + plan.marks.length;
}

/** Whether the plan changes anything on the platform or in the fleet's record. */
export function planChanges(plan: FleetPlan): boolean {
  return plan.adds.length + plan.updates.length + plan.removals.length + plan.marks.length > 0;
}
