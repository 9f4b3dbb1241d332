/**
 * What the pack knows of an RpsFleet (a batch of RPS records), for both front-ends: its records
 * keyed by serial number, wherever the props keep them — the dynamic resource's checked `entries`
 * (serial number → URL) and its outputs' `profileUrls`, the plugin's recorded `records` (keyed the
 * same) and outputs' `profileUrls`, or a program's list (`records: [{ sn, profileUrl }]`, one JSON
 * string on the dynamic resource's wire).
 */
/** Properties as a policy sees them. */
type Props = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parsed(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/** The batch's records, serial number → profile URL (URLs not a string are left out). */
export function batchRecords(props: Props): Record<string, string> {
  for (const key of ["profileUrls", "entries", "records"] as const) {
    const value = parsed(props[key]);
    if (Array.isArray(value)) {
      const records: Record<string, string> = {};
      for (const item of value) {
        if (isRecord(item) && typeof item.sn === "string" && typeof item.profileUrl === "string")
          records[item.sn] = item.profileUrl;
      }
      return records;
    }
    if (isRecord(value)) {
      return Object.fromEntries(
        Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
      );
    }
  }
  return {};
}
