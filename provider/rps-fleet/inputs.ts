/**
 * The inputs of an RpsFleet (a batch of RPS records): their checks — each record's `sn` and
 * `profileUrl` by the RpsProfile rules, one failure per field, serial numbers unique without regard
 * to case, the settings — and their checked form.
 *
 * The program gives `records` as a list; the checked inputs hold them as `entries`, serial number →
 * profile URL, for the reasons a DeviceFleet holds its devices keyed (see device-fleet/inputs.ts):
 * `preview --diff` shows the records that changed, the plan is by serial number, and a checked
 * input must not share its name with an output of another shape.
 */
import {
  definedInputs,
  InputChecker,
  isUnknown,
  SERIAL_NUMBER,
  type CheckFailure,
  type Inputs,
} from "../shared/input-checks";
import { checkKeyedList } from "../shared/keyed-list";
import { isPlainObject } from "../../sdk/plain-object";

/** The fields of one record. */
export const RECORD_FIELDS = ["sn", "profileUrl"] as const;

/** The settings of a batch, besides its records. */
export const SETTING_INPUTS = ["concurrency", "maxRemovals"] as const;

/** Serial number (as declared) → profile URL. */
export type RpsEntries = Record<string, string>;

/** A batch's settings, with defaults applied. */
export interface RpsFleetSettings {
  readonly concurrency: number;
  readonly maxRemovals: number | undefined;
}

/** Parallel platform requests of a batch, by default and at most. */
export const DEFAULT_CONCURRENCY = 16;
export const MAX_CONCURRENCY = 64;

const RESOURCE = "RpsFleet";

function failure(property: string, reason: string): CheckFailure {
  return { property, reason: `${RESOURCE}.${property} ${reason}` };
}

/** The settings of checked inputs (or of a state, which records them too). */
export function settingsOf(inputs: Inputs): RpsFleetSettings {
  return {
    concurrency: typeof inputs.concurrency === "number" ? inputs.concurrency : DEFAULT_CONCURRENCY,
    maxRemovals: typeof inputs.maxRemovals === "number" ? inputs.maxRemovals : undefined,
  };
}

/** The entries of checked inputs, or undefined while unknown (a preview). */
export function entriesOf(inputs: Inputs): RpsEntries | undefined {
  return isPlainObject(inputs.entries) ? (inputs.entries as RpsEntries) : undefined;
}

function checkSettings(inputs: Inputs): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const integer = (name: string, min: number, max: number) => {
    const value = inputs[name];
    if (value === undefined || value === null || isUnknown(value)) return;
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      failures.push(
        failure(name, `must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`),
      );
    }
  };
  integer("concurrency", 1, MAX_CONCURRENCY);
  integer("maxRemovals", 0, Number.MAX_SAFE_INTEGER);
  return failures;
}

/** The records as a list: the RpsFleet class sends them as one JSON string (as a DeviceFleet does). */
function parsedRecords(given: unknown): unknown {
  if (typeof given !== "string" || isUnknown(given)) return given;
  try {
    return JSON.parse(given) as unknown;
  } catch {
    return given;
  }
}

/** Whether every property of `record` is a record's (or the provider's own `__provider`). */
function onlyRecordFields(record: Record<string, unknown>): boolean {
  for (const key in record) {
    if (key !== "sn" && key !== "profileUrl" && key !== "__provider") return false;
  }
  return true;
}

/**
 * A record's failures. The records of a batch share a few URLs: a record whose URL passed the whole
 * check before (`goodUrls`, of this list), whose serial number is well formed (hex digits only, so
 * no space or unsafe character) and that has no other property passes without the checker's work,
 * which cost a batch of 10,000 about 0.14 s of CPU at every preview. Any other record is checked
 * whole, so a failure reads as it always did.
 */
function checkRecord(record: Record<string, unknown>, index: number, goodUrls: Set<string>): CheckFailure[] {
  const { sn, profileUrl } = record;
  if (
    typeof sn === "string" &&
    typeof profileUrl === "string" &&
    goodUrls.has(profileUrl) &&
    SERIAL_NUMBER.test(sn) &&
    onlyRecordFields(record)
  )
    return [];
  const context = typeof sn === "string" && !isUnknown(sn) ? `sn ${sn}` : undefined;
  const failures = new InputChecker(record, RESOURCE, `records[${index}]`, context)
    .knownProperties(RECORD_FIELDS, "an RPS record")
    .string("sn", { required: true, pattern: SERIAL_NUMBER, patternRule: "must be 12 to 16 hex digits" })
    .httpsUrl("profileUrl", { required: true }).failures;
  if (failures.length === 0 && typeof profileUrl === "string" && !isUnknown(profileUrl))
    goodUrls.add(profileUrl);
  return failures;
}

/**
 * Checks the records and returns them keyed by serial number — or UNKNOWN when the list, a serial
 * number or a URL in it is not known yet.
 */
function checkEntries(given: unknown): { entries: unknown; failures: CheckFailure[] } {
  const goodUrls = new Set<string>();
  return checkKeyedList<string>(parsedRecords(given), {
    property: "records",
    item: "record",
    shape: "{ sn, profileUrl }",
    failure,
    checkItem: (record, index) => {
      const failures = checkRecord(record, index, goodUrls);
      const { sn, profileUrl } = record;
      const unknown = isUnknown(sn) || isUnknown(profileUrl);
      if (failures.length > 0 || typeof sn !== "string" || typeof profileUrl !== "string")
        return { failures, unknown };
      return { failures, unknown, keep: { sn, entry: profileUrl } };
    },
  });
}

/**
 * Checks the program's inputs and returns the checked inputs — `fleetName`, `entries` and the
 * settings — with one failure per problem.
 */
export function checkRpsFleetInputs(news: Inputs): { inputs: Inputs; failures: CheckFailure[] } {
  const fleetName = typeof news.fleetName === "string" ? news.fleetName : "";
  const unknownKeys = Object.keys(news).filter(
    (key) => !["fleetName", "records", "profileUrls", "__provider", ...SETTING_INPUTS].includes(key),
  );
  const { entries, failures } = checkEntries(news.records);
  const inputs = definedInputs({
    fleetName,
    entries,
    ...Object.fromEntries(SETTING_INPUTS.map((key) => [key, news[key]])),
  });
  return {
    inputs,
    failures: [
      ...unknownKeys.map((key) =>
        failure(key, `is not a property of RpsFleet; expected one of: records, ${SETTING_INPUTS.join(", ")}`),
      ),
      ...failures,
      ...checkSettings(news),
    ],
  };
}
