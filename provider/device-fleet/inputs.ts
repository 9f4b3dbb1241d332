/**
 * The inputs of a DeviceFleet: their checks (each entry by the Device rules, serial numbers unique
 * without regard to case, the settings, `maxRemovals`), and their checked form.
 *
 * The program gives `devices` as a list. The checked inputs hold it as `entries`, a record keyed by
 * serial number, for three reasons: `pulumi preview --diff` of a record shows the entries that
 * changed rather than every entry after a removed one; the plan is by serial number anyway; and a
 * checked input must not share a name with an output of another shape (`devices`), because in a
 * preview of an update the engine hands a dynamic resource's inputs back as its outputs.
 */
import { checkDeviceFields, DEVICE_FIELDS, type DeclaredDevice } from "../device/desired";
import { definedInputs, InputChecker, isUnknown, SERIAL_NUMBER, type Inputs } from "../shared/input-checks";
import type { CheckFailure } from "../shared/input-checks";
import { checkKeyedList } from "../shared/keyed-list";
import { markersIn, namedAmong } from "../shared/owner-marker";
import { isPlainObject } from "../../sdk/plain-object";

/** The fields of one fleet entry. */
export const ENTRY_FIELDS = DEVICE_FIELDS;

/** The settings of a fleet, besides its devices. */
export const SETTING_INPUTS = [
  "adoptExisting",
  "takeOverRps",
  "concurrency",
  "onRemove",
  "maxRemovals",
  "takeOver",
  "takeOverFrom",
] as const;

/** One declared device of a fleet, without its serial number (the key). */
export type FleetEntry = Omit<DeclaredDevice, "sn">;

/** Serial number (as declared) → entry. */
export type FleetEntries = Record<string, FleetEntry>;

/** What a fleet does with a device removed from it. */
export type OnRemove = "delete" | "release";

/** A fleet's settings, with defaults applied. */
export interface FleetSettings {
  readonly adoptExisting: boolean;
  readonly takeOverRps: boolean;
  readonly concurrency: number;
  readonly onRemove: OnRemove;
  readonly maxRemovals: number | undefined;
  /**
   * Serial numbers (upper case) the fleet may take over from another stack whose owner tag they
   * carry (the `takeOver` input); any other device another stack owns is refused.
   */
  readonly takeOver: ReadonlySet<string>;
  /**
   * Stacks (`<project>/<stack>`, optionally `@<instance>`) whose every device the fleet may take
   * over (the `takeOverFrom` input): a lost stack's whole fleet in one line.
   */
  readonly takeOverFrom: readonly string[];
}

/**
 * Whether the fleet may take the device `sn` over from the stack whose owner marker is among `tags`
 * (the serial number listed in `takeOver`, or the stack named in `takeOverFrom`).
 */
export function mayTakeOver(
  settings: FleetSettings,
  sn: string,
  tags: readonly string[] | undefined,
): boolean {
  if (settings.takeOver.has(sn.toUpperCase())) return true;
  return markersIn(tags).some((tag) => namedAmong(tag, settings.takeOverFrom));
}

/** Parallel platform requests of a fleet, by default and at most. */
export const DEFAULT_CONCURRENCY = 16;
export const MAX_CONCURRENCY = 64;

const RESOURCE = "DeviceFleet";

type Failure = CheckFailure;

function failure(property: string, reason: string): Failure {
  return { property, reason: `${RESOURCE}.${property} ${reason}` };
}

/** The settings of checked inputs (or of a state's outputs, which carry them too). */
export function settingsOf(inputs: Inputs): FleetSettings {
  return {
    adoptExisting: inputs.adoptExisting !== false,
    takeOverRps: inputs.takeOverRps === true,
    concurrency: typeof inputs.concurrency === "number" ? inputs.concurrency : DEFAULT_CONCURRENCY,
    onRemove: inputs.onRemove === "release" ? "release" : "delete",
    maxRemovals: typeof inputs.maxRemovals === "number" ? inputs.maxRemovals : undefined,
    takeOver: new Set(
      (Array.isArray(inputs.takeOver) ? inputs.takeOver : [])
        .filter((sn): sn is string => typeof sn === "string")
        .map((sn) => sn.toUpperCase()),
    ),
    takeOverFrom: (Array.isArray(inputs.takeOverFrom) ? inputs.takeOverFrom : []).filter(
      (stack): stack is string => typeof stack === "string",
    ),
  };
}

/** The entries of checked inputs or of a state, or undefined while unknown (a preview). */
export function entriesOf(inputs: Inputs): FleetEntries | undefined {
  return isPlainObject(inputs.entries) ? (inputs.entries as FleetEntries) : undefined;
}

function checkSettings(inputs: Inputs): Failure[] {
  const failures = new InputChecker(inputs, RESOURCE)
    .boolean("adoptExisting")
    .boolean("takeOverRps").failures;
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
  const onRemove = inputs.onRemove;
  if (
    onRemove !== undefined &&
    onRemove !== null &&
    !isUnknown(onRemove) &&
    onRemove !== "delete" &&
    onRemove !== "release"
  ) {
    failures.push(failure("onRemove", `must be "delete" or "release", got ${JSON.stringify(onRemove)}`));
  }
  failures.push(...checkTakeOver(inputs.takeOver), ...checkTakeOverFrom(inputs.takeOverFrom));
  return failures;
}

/** A stack a fleet takes over from: `<project>/<stack>`, optionally `@<instance>` or after a tag prefix. */
const STACK_NAME = /^\S*?[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+(@[a-z2-7]{8})?$/;

/** `takeOverFrom`: a list of stacks, `<project>/<stack>`. */
function checkTakeOverFrom(stacks: unknown): Failure[] {
  if (stacks === undefined || stacks === null || isUnknown(stacks)) return [];
  if (!Array.isArray(stacks))
    return [failure("takeOverFrom", 'must be a list of stacks, "<project>/<stack>"')];
  return stacks.flatMap((stack: unknown, index) =>
    isUnknown(stack) || (typeof stack === "string" && STACK_NAME.test(stack))
      ? []
      : [
          failure(
            `takeOverFrom[${index}]`,
            `must name a stack as "<project>/<stack>" (as its owner tag does, e.g. "fleet/dev"), got ${JSON.stringify(stack)}`,
          ),
        ],
  );
}

/** `takeOver`: a list of serial numbers (those the fleet may take from another stack). */
function checkTakeOver(takeOver: unknown): Failure[] {
  if (takeOver === undefined || takeOver === null || isUnknown(takeOver)) return [];
  if (!Array.isArray(takeOver)) return [failure("takeOver", "must be a list of serial numbers")];
  return takeOver.flatMap((sn: unknown, index) =>
    isUnknown(sn) || (typeof sn === "string" && SERIAL_NUMBER.test(sn))
      ? []
      : [
          failure(
            `takeOver[${index}]`,
            `must be a serial number (12 to 16 hex digits), got ${JSON.stringify(sn)}`,
          ),
        ],
  );
}

/** The checks of one entry (by the Device rules), naming the entry by index and serial number. */
function checkEntry(device: Record<string, unknown>, index: number): Failure[] {
  const sn = device.sn;
  const context = typeof sn === "string" && !isUnknown(sn) ? `sn ${sn}` : undefined;
  const checker = new InputChecker(device, RESOURCE, `devices[${index}]`, context);
  return checkDeviceFields(checker.knownProperties(ENTRY_FIELDS, "a DeviceFleet device")).failures;
}

/**
 * The devices as a list: the DeviceFleet class sends them as one JSON string (see its constructor);
 * a list given directly (a program on an older version of the class) is taken as it is.
 */
function parsedDevices(given: unknown): unknown {
  if (typeof given !== "string" || isUnknown(given)) return given;
  try {
    return JSON.parse(given) as unknown;
  } catch {
    return given;
  }
}

/**
 * Checks the entries and returns them keyed by serial number — or UNKNOWN when the list, or a
 * serial number in it, is not known yet (a preview of values computed by other resources).
 */
function checkEntries(given: unknown): { entries: unknown; failures: Failure[] } {
  return checkKeyedList<FleetEntry>(parsedDevices(given), {
    property: "devices",
    item: "device",
    shape: "{ sn, name, … }",
    failure,
    checkItem: (device, index) => {
      const failures = checkEntry(device, index);
      const sn = device.sn;
      if (typeof sn !== "string" || isUnknown(sn)) return { failures, unknown: isUnknown(sn) };
      const entry = definedInputs(device);
      delete entry.sn;
      return { failures, unknown: false, keep: { sn, entry: entry as FleetEntry } };
    },
  });
}

/** Serial numbers of `before` missing from `after`, compared without regard to case. */
export function removedSerials(before: FleetEntries, after: FleetEntries): string[] {
  const kept = new Set(Object.keys(after).map((sn) => sn.toUpperCase()));
  return Object.keys(before).filter((sn) => !kept.has(sn.toUpperCase()));
}

function checkMaxRemovals(fleet: string, olds: Inputs, entries: unknown, settings: FleetSettings): Failure[] {
  const before = entriesOf(olds);
  if (settings.maxRemovals === undefined || !before || !isPlainObject(entries)) return [];
  const removed = removedSerials(before, entries as FleetEntries);
  if (removed.length <= settings.maxRemovals) return [];
  const shown =
    removed.slice(0, 5).join(", ") + (removed.length > 5 ? ` and ${removed.length - 5} more` : "");
  // Reported on maxRemovals, not devices: the engine prints the property's value with the failure,
  // and a fleet's whole device list is no thing to print.
  return [
    {
      property: "maxRemovals",
      reason:
        `DeviceFleet.devices would remove ${removed.length} devices from fleet ${fleet} (${shown}), more than maxRemovals ${settings.maxRemovals}; ` +
        "check the inventory the fleet is read from, or raise maxRemovals for this change",
    },
  ];
}

/**
 * Checks the program's inputs (`olds`: the previous checked inputs, for `maxRemovals`) and returns
 * the checked inputs — `fleetName`, `entries` and the settings — with one failure per problem.
 */
export function checkFleetInputs(olds: Inputs, news: Inputs): { inputs: Inputs; failures: Failure[] } {
  const fleetName = typeof news.fleetName === "string" ? news.fleetName : "";
  const unknownKeys = Object.keys(news).filter(
    (key) => !["fleetName", "devices", "deviceIds", "__provider", ...SETTING_INPUTS].includes(key),
  );
  const { entries, failures } = checkEntries(news.devices);
  const settingFailures = checkSettings(news);
  const inputs = definedInputs({
    fleetName,
    entries,
    ...Object.fromEntries(SETTING_INPUTS.map((key) => [key, news[key]])),
  });
  const all = [
    ...unknownKeys.map((key) =>
      failure(
        key,
        `is not a property of DeviceFleet; expected one of: devices, ${SETTING_INPUTS.join(", ")}`,
      ),
    ),
    ...failures,
    ...settingFailures,
  ];
  if (all.length === 0) all.push(...checkMaxRemovals(fleetName, olds, entries, settingsOf(inputs)));
  return { inputs, failures: all };
}
