/**
 * The RPS URL allow-list (rps-profile-url.ts) on an RpsFleet: every record's profileUrl starts with
 * one of the allowed prefixes. One violation per batch, naming how many records are off the list
 * and the first few, so that a batch of thousands gives one readable line.
 */
import type { ReportViolation } from "@pulumi/policy";
import { batchRecords } from "../rps-batch";
import { isUnderPrefix } from "../urls";

const SHOWN = 5;

/** Reports the records of the batch `name` whose URL starts with none of `allowedPrefixes`. */
export function reportBatchUrls(
  name: string,
  props: Record<string, unknown>,
  allowedPrefixes: readonly string[],
  reportViolation: ReportViolation,
): void {
  const off = Object.entries(batchRecords(props)).filter(
    ([, url]) => !allowedPrefixes.some((prefix) => isUnderPrefix(url, prefix)),
  );
  if (off.length === 0) return;
  const shown = off
    .slice(0, SHOWN)
    .map(([sn, url]) => `${sn} ${url}`)
    .join(", ");
  const more = off.length > SHOWN ? ` and ${off.length - SHOWN} more` : "";
  reportViolation(
    `RpsFleet "${name}": ${off.length} record(s) not on an allowed RPS server (${shown}${more}); ` +
      `each profileUrl, resolved, must be under ${allowedPrefixes.join(" or ")}`,
  );
}
