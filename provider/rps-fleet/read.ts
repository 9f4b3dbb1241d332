/**
 * Refresh of a batch: the application's records read by the paged listing (⌈N/100⌉ requests for N
 * records in the application), shared with every other RPS read of the refresh. A record the
 * listing does not return leaves the batch only when the platform's answer proves it gone
 * (rps-profile/record-lookup.ts: at most one more page); otherwise it is kept, with a warning. A
 * URL changed out of band shows as drift of that record, which the next `up` repairs.
 */
import { log } from "../output/log";
import { platformClient } from "../platform-access/platform-client";
import { invalidateRpsListing, rpsListing } from "../rps-profile/listing";
import { lookUpRpsRecord } from "../rps-profile/record-lookup";
import { definedInputs, type Inputs } from "../shared/input-checks";
import { SETTING_INPUTS } from "./inputs";
import { RpsLedger } from "./state";

/** The refreshed state and inputs of a batch. */
export async function refreshRpsFleet(
  id: string,
  batch: string,
  props: Inputs,
): Promise<{ id: string; props: Inputs; inputs: Inputs }> {
  const ledger = RpsLedger.fromOutputs(props);
  const client = await platformClient();
  invalidateRpsListing();
  const listing = await rpsListing(client);
  const unproven: string[] = [];
  for (const sn of ledger.serials()) {
    const listed = listing.records.get(sn.toUpperCase());
    if (listed) {
      ledger.set(sn, listed.profileUrl);
      continue;
    }
    const lookup = await lookUpRpsRecord(client, sn);
    if (lookup.state === "found") ledger.set(sn, lookup.record.profileUrl);
    else if (lookup.state === "gone") ledger.forget(sn);
    else unproven.push(sn);
  }
  if (unproven.length > 0) {
    await log.warn(
      `RpsFleet ${batch}: the listing of RPS records did not return ${unproven.length} record(s) ` +
        `(${unproven.slice(0, 20).join(", ")}), and no answer of the platform shows them gone (the listing ` +
        "shifted while it was read); they are kept in the stack as they were — run `pulumi refresh` again to check",
    );
  }
  const settings = Object.fromEntries(SETTING_INPUTS.map((key) => [key, props[key]]));
  return {
    id,
    props: ledger.toOutputs(batch, props),
    inputs: definedInputs({ fleetName: batch, entries: ledger.entries(), ...settings }),
  };
}
