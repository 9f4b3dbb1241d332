/**
 * An RpsFleet's diff, for both front-ends from one plan: a path per record that changes —
 * `records["AC0000F10004"]` added, changed (UPDATE) or removed (DELETE) — so that `preview --diff`
 * of a batch of thousands shows exactly the records that change (the dynamic front-end hands it to
 * its host as `entries[…]`), and the plan as one message (counts, at most 20 serial numbers a
 * category). Never a replacement: the batch's id is its name.
 */
import type { KindDiff, PropertyChange } from "../core/diff";
import { changeKind, inputChange } from "../core/diff";
import { log } from "../output/log";
import type { Inputs } from "../shared/input-checks";
import { isPlainObject } from "../../sdk/plain-object";
import { entriesOf, SETTING_INPUTS, type RpsEntries } from "./inputs";
import { describeRpsPlan } from "./message";
import { planChanges, planRpsFleet, sameRecords } from "./plan";
import { RpsLedger } from "./state";
import { splitRemovals } from "./guard";

/** The path of one record of the batch: `records["AC0000F10004"]`. */
export function recordPath(sn: string): string {
  return `records[${JSON.stringify(sn)}]`;
}

/** The declared entries of checked inputs (`entries`, or `records` keyed where the plugin records them). */
export function declaredRecords(inputs: Inputs): RpsEntries | undefined {
  return entriesOf(inputs) ?? (isPlainObject(inputs.records) ? (inputs.records as RpsEntries) : undefined);
}

/** The RpsFleet's one diff of its state (`olds`) against the checked inputs (`news`). */
export async function rpsFleetDiff(batch: string, olds: Inputs, news: Inputs): Promise<KindDiff> {
  const declared = declaredRecords(news);
  // The state's records as they are when the program declares them alike (a no-change preview): the
  // ledger's sorted copy is only needed to plan a change.
  const recorded = isPlainObject(olds.profileUrls) ? olds.profileUrls : undefined;
  const applied =
    declared && recorded && sameRecords(recorded, declared)
      ? declared
      : RpsLedger.fromOutputs(olds).entries();
  const settings = SETTING_INPUTS.filter((key) => olds[key] !== news[key]);
  const detailed: Record<string, { kind: PropertyChange; inputDiff: boolean }> = {};
  for (const key of settings) detailed[key] = inputChange(changeKind(olds[key], news[key]));
  if (!declared) {
    detailed.records = inputChange("UPDATE");
    return { changes: true, replaces: [], stables: [], deleteBeforeReplace: false, detailedDiff: detailed };
  }
  const plan = planRpsFleet(applied, declared);
  for (const sn of plan.removals) detailed[recordPath(sn)] = inputChange("DELETE");
  for (const sn of plan.adds) detailed[recordPath(sn)] = inputChange("ADD");
  for (const { sn } of plan.updates) detailed[recordPath(sn)] = inputChange("UPDATE");
  if (planChanges(plan)) {
    const { handedOver, kept } = splitRemovals(batch, plan.removals);
    await log.info(describeRpsPlan(batch, plan, handedOver, kept));
  }
  return {
    changes: planChanges(plan) || settings.length > 0,
    replaces: [],
    stables: [],
    deleteBeforeReplace: false,
    detailedDiff: detailed,
  };
}
