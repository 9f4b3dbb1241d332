/**
 * A Device's share of the stack's removal budget (`devplatform:maxRemovals`, see
 * guardrails/removal-budget.ts): a new serial number replaces the resource and deletes the old
 * device, which its `check` sees at preview; a Device the program no longer declares is seen only
 * by its delete, during the `up`. `pulumi destroy` runs no program and is never budgeted.
 */
import { programRan } from "../guardrails/ownership";
import { providerSettings } from "../platform-access/platform-client";
import { chargeDelete, chargeRemovals } from "../guardrails/removal-budget";
import type { CheckFailure, Inputs } from "../shared/input-checks";
import { sameSerial } from "../shared/serial-numbers";

/** The budget's failure for a check whose serial number changed (a replacement), or undefined. */
export async function replacementOverBudget(olds: Inputs, news: Inputs): Promise<CheckFailure | undefined> {
  const before = olds.sn;
  if (typeof before !== "string" || typeof news.sn !== "string" || sameSerial(before, news.sn))
    return undefined;
  const budget = (await providerSettings()).maxRemovals;
  if (budget === undefined) return undefined;
  const problem = await chargeRemovals(`Device ${before}`, [before], budget);
  return problem === undefined ? undefined : { property: "", reason: problem };
}

/** The budget's refusal of deleting device `sn` in an `up`, or undefined. */
export async function deleteOverBudget(sn: string): Promise<string | undefined> {
  const budget = (await providerSettings()).maxRemovals;
  if (budget === undefined || !programRan()) return undefined;
  return chargeDelete(`Device ${sn}`, [sn], budget);
}
