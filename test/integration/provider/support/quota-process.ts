/**
 * Another provider process of the same deployment (a plugin instance beside the dynamic provider
 * host) for the spent-quota tests: it joins the deployment named in `QUOTA_PROCESS` (JSON), creates
 * the given resources through the shared implementations, each failure kept as its message, prints
 * one JSON line with the outcomes, and stays alive — its record with it, as a provider process does
 * until the deployment ends — until its stdin closes.
 */
import { providerImplementation } from "../../../../provider/dynamic/implementations";
import type { ResourceKind } from "../../../../provider/kinds";
import type { Inputs } from "../../../../provider/shared/input-checks";
import {
  joinAsProviderProcess,
  reportAndStay,
  runProviderProcess,
  type ProviderProcessOrder,
} from "./provider-process";

/** What the parent asks of this process. */
export interface QuotaProcessOrder extends ProviderProcessOrder {
  resources: { kind: ResourceKind; inputs: Inputs }[];
}

/** What became of one resource: its id, or the message of its failure. */
export type QuotaProcessOutcome = { id: string } | { error: string };

async function create(kind: ResourceKind, inputs: Inputs): Promise<QuotaProcessOutcome> {
  try {
    return { id: (await providerImplementation(kind).create(inputs)).id };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

async function main(): Promise<void> {
  const order = JSON.parse(process.env.QUOTA_PROCESS ?? "{}") as QuotaProcessOrder;
  joinAsProviderProcess(order);
  const outcomes: QuotaProcessOutcome[] = [];
  for (const { kind, inputs } of order.resources) outcomes.push(await create(kind, inputs));
  reportAndStay("QUOTA-PROCESS", outcomes);
}

runProviderProcess(main);
