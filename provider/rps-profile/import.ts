/**
 * `pulumi import devplatform:index:RpsProfile NAME SN`: the RPS record of a serial number, found in
 * the application's listing (the platform has no read of one record).
 */
import { platformClient } from "../platform-access/platform-client";
import { describeFailure, ResourceOperationError } from "../shared/errors";
import { SERIAL_NUMBER, type Inputs } from "../shared/input-checks";
import type { ImportedResource } from "../core/kind";
import { lookUpRpsRecord } from "./record-lookup";

/** Reads the RPS record of `sn` for an import. */
export async function importRpsProfile(sn: string): Promise<ImportedResource> {
  const operation = `import RpsProfile sn=${sn}`;
  if (!SERIAL_NUMBER.test(sn)) {
    throw new ResourceOperationError(
      `${operation} failed: the import id must be a serial number, 12 to 16 hex digits, got "${sn}"`,
    );
  }
  return describeFailure(operation, async () => {
    const lookup = await lookUpRpsRecord(await platformClient(), sn);
    if (lookup.state === "gone") {
      throw new ResourceOperationError(`${operation} failed: the application has no RPS record for ${sn}`);
    }
    if (lookup.state === "unknown") {
      throw new ResourceOperationError(
        `${operation} failed: the listing of RPS records kept shifting while it was read and did not show ` +
          "the record either way; run the import again",
      );
    }
    const inputs = { sn, profileUrl: lookup.record.profileUrl };
    return { id: sn, inputs, outputs: inputs };
  });
}

/** The declared inputs within an RpsProfile's recorded state. */
export function rpsProfileInputsOf(state: Inputs): Inputs {
  return { sn: state.sn, profileUrl: state.profileUrl };
}
