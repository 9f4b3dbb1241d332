/**
 * Who a batch's removals go to, and what stops a batch from deleting records its program did not
 * mean to drop (an emptied, cut or mis-decoded `rps.csv`), before any write — the rules a
 * DeviceFleet keeps (device-fleet/removal-guard.ts), counting the records the batch deletes:
 *
 * - the batch's own `maxRemovals`;
 * - without it, the default: deleting more than half of the records the batch manages, and more
 *   than one, stops — unless the stack sets a removal budget;
 * - the stack's removal budget `devplatform:maxRemovals` (guardrails/removal-budget.ts), charged under
 *   `RpsFleet <name>` beside every fleet and Device of the deployment.
 *
 * A removed record another RPS resource of the deployment declares (an RpsProfile, another batch) is
 * left on the platform; one a Device or DeviceFleet declares is handed over: deleted (so the device
 * can be added), and not counted as a removal.
 */
import { declarersOf } from "../guardrails/ownership";
import { providerSettings } from "../platform-access/platform-client";
import { chargeRemovals } from "../guardrails/removal-budget";
import { batchesDeclaring, rpsProfileDeclares } from "../guardrails/rps-ownership";
import { defaultRemovalLimit } from "../device-fleet/removal-guard";
import type { RpsFleetSettings } from "./inputs";

/** A batch's removals, by where each goes. */
export interface RemovalSplit {
  /** Deleted, and counted as removals. */
  readonly deleting: string[];
  /** Deleted for a device resource that takes the serial number (not counted). */
  readonly handedOver: ReadonlySet<string>;
  /** Left on the platform for another RPS resource that declares them. */
  readonly kept: ReadonlySet<string>;
}

/** Splits `removals` of `batch` by the deployment's declarations (see the module's comment). */
export function splitRemovals(batch: string, removals: readonly string[]): RemovalSplit {
  const deleting: string[] = [];
  const handedOver = new Set<string>();
  const kept = new Set<string>();
  for (const sn of removals) {
    if (rpsProfileDeclares(sn) || batchesDeclaring(sn, batch).length > 0) kept.add(sn);
    else if (declarersOf(sn).length > 0) handedOver.add(sn);
    else deleting.push(sn);
  }
  return { deleting, handedOver, kept };
}

function listed(serials: readonly string[]): string {
  // In serial order: a batch's state lists its records as their writes ended.
  const shown = [...serials].sort().slice(0, 5).join(", ");
  return serials.length > 5 ? `${shown} and ${serials.length - 5} more` : shown;
}

/**
 * The message refusing `deleting` (records of the `managed` the batch holds), or undefined when the
 * rules allow it. Charges the stack's budget, when set, under the batch's label.
 */
export async function removalProblem(
  batch: string,
  deleting: readonly string[],
  managed: number,
  settings: RpsFleetSettings,
): Promise<string | undefined> {
  if (deleting.length === 0) return undefined;
  if (settings.maxRemovals !== undefined && deleting.length > settings.maxRemovals) {
    return (
      `RpsFleet ${batch} would delete ${deleting.length} RPS records (${listed(deleting)}), more than maxRemovals ` +
      `${settings.maxRemovals}; nothing was written. Check the file the records are read from, or raise ` +
      "maxRemovals for this change"
    );
  }
  const stackBudget = (await providerSettings()).maxRemovals;
  if (
    settings.maxRemovals === undefined &&
    stackBudget === undefined &&
    deleting.length > defaultRemovalLimit(managed)
  ) {
    return (
      `RpsFleet ${batch} would delete ${deleting.length} of the ${managed} RPS records it manages (${listed(deleting)}), ` +
      "more than half of them; nothing was written. A batch without maxRemovals stops before deleting more than half " +
      "its records at once, which is what an emptied, cut off or mis-decoded rps.csv looks like. Check the file; if " +
      `the removals are meant, set the batch's maxRemovals (${deleting.length} or more) for this change, or the ` +
      `stack's removal budget (\`pulumi config set devplatform:maxRemovals ${deleting.length}\`)`
    );
  }
  return stackBudget === undefined ? undefined : chargeRemovals(`RpsFleet ${batch}`, deleting, stackBudget);
}
