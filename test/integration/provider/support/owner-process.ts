/**
 * Another provider process of the same deployment, as the plugin is beside the dynamic provider
 * host during a move: it joins the deployment named in `OWNER_PROCESS` (JSON), checks (and, unless
 * `checkOnly`, creates) the given resources through the shared implementations, prints one JSON
 * line with their ids, and stays alive — its record with it — until its stdin closes.
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
export interface OwnerProcessOrder extends ProviderProcessOrder {
  resources: { kind: ResourceKind; inputs: Inputs }[];
  checkOnly?: boolean;
}

async function main(): Promise<void> {
  const order = JSON.parse(process.env.OWNER_PROCESS ?? "{}") as OwnerProcessOrder;
  joinAsProviderProcess(order);
  const ids: string[] = [];
  for (const { kind, inputs } of order.resources) {
    const implementation = providerImplementation(kind);
    const checked = await implementation.check({}, inputs);
    if (checked.failures && checked.failures.length > 0) throw new Error(JSON.stringify(checked.failures));
    if (order.checkOnly) continue;
    ids.push((await implementation.create(checked.inputs)).id);
  }
  reportAndStay("OWNER-PROCESS", { ids });
}

runProviderProcess(main);
