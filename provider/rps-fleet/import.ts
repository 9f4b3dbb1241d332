/**
 * `pulumi import devplatform:index:RpsFleet NAME FILTER`: the application's RPS records the filter
 * selects become the batch's records, declared as the platform has them (so the next preview is
 * empty). The filter is `all`, or `prefix=<URL prefix>` (the records whose profile URL starts with
 * it). The listing is paged (⌈N/100⌉ requests); the batch's id is its name.
 */
import { platformClient } from "../platform-access/platform-client";
import { rpsListing, invalidateRpsListing } from "../rps-profile/listing";
import { describeFailure, ResourceOperationError } from "../shared/errors";
import { definedInputs, type Inputs } from "../shared/input-checks";
import type { ImportedResource } from "../core/kind";
import { SETTING_INPUTS } from "./inputs";
import { RpsLedger } from "./state";

/** The URL prefix an import filter selects (`""`: every record). */
export function parseRpsImportId(id: string): string {
  const trimmed = id.trim();
  if (trimmed === "all") return "";
  const match = /^prefix=(.+)$/.exec(trimmed);
  if (!match) {
    throw new ResourceOperationError(
      `import RpsFleet ${id} failed: the import id must be \`all\` or \`prefix=<profile URL prefix>\`, got "${id}"`,
    );
  }
  return match[1] as string;
}

/** Reads the records an import filter selects; `name` (the resource's) is the batch's id. */
export async function importRpsFleet(id: string, name?: string): Promise<ImportedResource> {
  const prefix = parseRpsImportId(id);
  const batch = name ?? id;
  return describeFailure(`import RpsFleet ${batch} (${id})`, async () => {
    invalidateRpsListing();
    const listing = await rpsListing(await platformClient());
    const ledger = new RpsLedger();
    const records: Inputs[] = [];
    for (const { sn, profileUrl } of listing.records.values()) {
      if (!profileUrl.startsWith(prefix)) continue;
      ledger.set(sn, profileUrl);
      records.push({ sn, profileUrl });
    }
    return { id: batch, inputs: { records }, outputs: ledger.toOutputs(batch, {}) };
  });
}

/** The declared inputs within a batch's state, as the plugin records checked inputs (`records` keyed). */
export function rpsFleetInputsOf(state: Inputs): Inputs {
  return definedInputs({
    fleetName: state.fleetName,
    records: RpsLedger.fromOutputs(state).entries(),
    ...Object.fromEntries(SETTING_INPUTS.map((key) => [key, state[key]])),
  });
}
