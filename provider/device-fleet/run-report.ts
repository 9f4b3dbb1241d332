/**
 * How a fleet's `up` ends: its outputs, the ledger as the run left it; or, for a run that did not
 * do everything, an error carrying those outputs and saying each failed device with the platform's
 * words, or — when the plan's daily request quota ran out — what was done (recorded in the stack),
 * what is left, and how many requests the rest will take.
 */
import { PartialSuccessError } from "../shared/errors";
import type { Inputs } from "../shared/input-checks";
import { AFTER_RENEWAL, quotaSpent } from "../shared/quota";
import type { FleetEntries } from "./inputs";
import type { FleetRun } from "./fleet-run";
import { planFleet, type FleetPlan } from "./plan";
import { describeFigure, plannedRequests } from "./request-count";

/**
 * The outputs of an `up` that did everything; else throws the {@link PartialSuccessError} that
 * records what was done (the engine keeps its outputs) and says what was not.
 */
export function upOutcome(run: FleetRun, plan: FleetPlan, declared: FleetEntries, inputs: Inputs): Inputs {
  const outs = run.ledger.toOutputs(run.fleet, inputs);
  if (run.quota) {
    throw new PartialSuccessError(describeQuotaStop(run, plan, declared), run.fleet, outs, {
      cause: run.quota,
      code: run.quota.code,
    });
  }
  const attempted = plan.adds.length + plan.updates.length + plan.removals.length;
  if (run.failures.length > 0)
    throw new PartialSuccessError(describeFailures(run, attempted), run.fleet, outs);
  return outs;
}

/** The message of a run with failures: each failed device and the platform's words (the first 20). */
export function describeFailures(run: FleetRun, attempted: number): string {
  const lines = run.failures.slice(0, 20).map((f) => `  - ${f.message}`);
  const more = run.failures.length > 20 ? `\n  … and ${run.failures.length - 20} more` : "";
  return (
    `${run.operation} failed for ${run.failures.length} of ${attempted} device(s):\n${lines.join("\n")}${more}\n` +
    "Everything else was done and is recorded in the stack; run `pulumi up` again to retry what failed"
  );
}

const n = (value: number) => value.toLocaleString("en-US");

/**
 * The message of a run the quota stopped: `update DeviceFleet f stopped: the plan's daily request
 * quota is spent: …. Done and recorded in the stack: 29 added, 0 updated, 0 removed. Left: 11 to
 * add, 0 to update, 0 to remove; left to make: 13 requests (…); run `pulumi up` again …`.
 * The requests left are the figure of the plan from what is recorded now, as the next preview
 * gives it.
 */
export function describeQuotaStop(run: FleetRun, plan: FleetPlan, declared: FleetEntries): string {
  if (!run.quota) throw new Error("describeQuotaStop needs a quota refusal");
  const left = planFleet(run.ledger, declared);
  const release = run.settings.onRemove === "release";
  const figure = plannedRequests(left, declared, run.ledger, run.settings, {
    applicationSize: run.ledger.size,
  });
  const done =
    `${n(plan.adds.length - left.adds.length)} added, ${n(plan.updates.length - left.updates.length)} updated, ` +
    `${n(plan.removals.length - left.removals.length)} ${release ? "released" : "removed"}`;
  const leftText =
    `${n(left.adds.length)} to add, ${n(left.updates.length)} to update, ` +
    `${n(left.removals.length)} to ${release ? "release" : "remove"}`;
  const failed =
    run.failures.length === 0 ? "" : `\n${describeFailures(run, plan.adds.length + plan.updates.length)}`;
  return (
    `${run.operation} stopped: ${quotaSpent(run.quota)}. Done and recorded in the stack: ${done}. ` +
    `Left: ${leftText}; left to make: ${describeFigure(figure)}; ${AFTER_RENEWAL}${failed}`
  );
}
