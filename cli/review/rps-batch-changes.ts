/**
 * An RpsFleet's step as RPS records by serial number: the provider's own plan (`planRpsFleet`, the
 * function both front-ends' diff calls) from the batch's recorded outputs (`profileUrls`: what is
 * applied) to its checked inputs (`entries` dynamic, `records` plugin), which the preview's JSON
 * carries for either front-end. Records are not devices: they are listed apart (rps-records-section.ts).
 */
import { planRpsFleet } from "../../provider/rps-fleet/plan";
import { RpsLedger } from "../../provider/rps-fleet/state";
import type { PreviewStep } from "./preview";
import { holdsUnknown, isRecord } from "./values";

/** What an `up` does to one RPS record of a batch. */
export interface RecordChange {
  readonly sn: string;
  readonly action: "add" | "change" | "remove";
  /** The batch: `RPS batch shipment-7`. */
  readonly resource: string;
  /** A change's URL before and after. */
  readonly before?: string;
  readonly after?: string;
}

/** The records a batch's step changes, and a note when they are known only at apply. */
export function rpsBatchChanges(step: PreviewStep): { records: RecordChange[]; notes: string[] } {
  const resource = `RPS batch ${step.urn.split("::").pop() ?? step.urn}`;
  const applied = RpsLedger.fromOutputs(step.old?.outputs ?? {}).entries();
  if (step.op === "delete" || step.op === "delete-replaced") {
    return { records: Object.keys(applied).map((sn) => ({ sn, action: "remove", resource })), notes: [] };
  }
  const inputs = step.new?.inputs ?? {};
  const given = inputs.entries ?? inputs.records;
  if (given === undefined) return { records: [], notes: [] };
  if (holdsUnknown(given) || !isRecord(given)) {
    return {
      records: [],
      notes: [`${resource}: its records are known only at apply (they depend on other resources)`],
    };
  }
  const declared = Object.fromEntries(
    Object.entries(given).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
  const plan = planRpsFleet(applied, declared);
  return {
    records: [
      ...plan.removals.map((sn): RecordChange => ({ sn, action: "remove", resource })),
      ...plan.updates.map(({ sn, from, to }): RecordChange => ({
        sn,
        action: "change",
        resource,
        before: from,
        after: to,
      })),
      ...plan.adds.map((sn): RecordChange => ({ sn, action: "add", resource })),
    ],
    notes: [],
  };
}
