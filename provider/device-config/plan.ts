/**
 * What a DeviceConfig writes, as pure functions of the previous and desired state: which devices
 * get which values, grouped so that devices receiving the same payload share one write (one PATCH
 * for a single device, one task call per 500 devices otherwise).
 *
 * - create: every device gets every property (or the whole profile).
 * - update: devices that stay get the properties that changed (all of them when the task `version`
 *   changed); devices added get everything; with `resetOnDelete`, properties no longer managed and
 *   devices no longer named get their TSL defaults back.
 * - delete with `resetOnDelete`: every device gets the defaults of every managed property.
 */
import { stringifyLosslessJson, type PropertyValuesInput } from "../../sdk";
import { methodOf, type DesiredConfig } from "./inputs";
import { sameValue } from "../tsl/compare";
import { isWritable, type IndexedModel } from "../tsl/model-index";
import { defaultValueOf, toWire } from "../tsl/wire";

/** One write to a set of devices. */
export interface PlannedWrite {
  readonly deviceIds: string[];
  /** TSL: property id → value in the platform's shape; PROFILE: key → value. */
  readonly type: "TSL" | "PROFILE";
  readonly values: PropertyValuesInput;
  readonly version?: string;
  /** `apply` writes desired values; `reset` writes TSL defaults. */
  readonly purpose: "apply" | "reset";
}

/** Per-device TSL models, as validation fetched them. */
export type ModelOf = (deviceId: string) => IndexedModel | undefined;

/**
 * The configuration devices report now (Getting the Configuration of a Specific Device), read just
 * before writing to them. A value a device already has is not written again — so adopting a
 * configured fleet writes nothing, and an `up` retried after a write whose outcome was unknown (or
 * after the CLI was killed) creates no second task for what the first one applied. A task `version`
 * is the exception: no read shows it, so a device new to a configuration written by tasks with a
 * `version` gets every value with it (see {@link valuesForNewDevice}).
 */
export type CurrentConfig = ReadonlyMap<string, Readonly<Record<string, unknown>>>;

type Values = Record<string, unknown>;

/** `values` without those the device already reports (all of them when it was not read). */
export function unapplied(values: Values, reported: Readonly<Record<string, unknown>> | undefined): Values {
  if (reported === undefined) return values;
  return Object.fromEntries(
    Object.entries(values).filter(
      ([key, value]) => !(Object.hasOwn(reported, key) && sameValue(value, reported[key], key)),
    ),
  );
}

function pick(values: Values, keys: Iterable<string>): Values {
  const picked: Values = {};
  for (const key of keys) if (Object.hasOwn(values, key)) picked[key] = values[key];
  return picked;
}

/** The TSL defaults of `keys` in a device's model; keys without a usable default are left out. */
export function defaultsOf(keys: Iterable<string>, model: IndexedModel | undefined): Values {
  const defaults: Values = {};
  for (const key of keys) {
    const property = model?.topLevel.get(key);
    if (!property || !isWritable(property)) continue;
    const value = defaultValueOf(property, model as IndexedModel);
    if (value !== undefined) defaults[key] = value;
  }
  return defaults;
}

/** Groups per-device TSL values into writes: devices with identical payloads share one. */
function groupTsl(
  perDevice: Iterable<[string, Values]>,
  modelOf: ModelOf,
  purpose: PlannedWrite["purpose"],
  version?: string,
): PlannedWrite[] {
  const groups = new Map<string, PlannedWrite>();
  for (const [deviceId, values] of perDevice) {
    if (Object.keys(values).length === 0) continue;
    const model = modelOf(deviceId);
    const wire = model ? toWire(values, model) : (values as PropertyValuesInput);
    const key = stringifyLosslessJson(wire);
    const group = groups.get(key);
    if (group) group.deviceIds.push(deviceId);
    else groups.set(key, { deviceIds: [deviceId], type: "TSL", values: wire, version, purpose });
  }
  return [...groups.values()];
}

function profileWrite(deviceIds: string[], want: DesiredConfig): PlannedWrite[] {
  if (deviceIds.length === 0) return [];
  return [
    {
      deviceIds,
      type: "PROFILE",
      values: (want.profile ?? {}) as PropertyValuesInput,
      version: want.version,
      purpose: "apply",
    },
  ];
}

/**
 * What a device new to the configuration is sent: what it does not already report, or, under a
 * task `version`, everything. A device showing the values may have them from anywhere (a PATCH,
 * another configuration, by hand) without the version, and no read can show which: the version
 * reaches it only by a task.
 */
function valuesForNewDevice(
  want: DesiredConfig,
  reported: Readonly<Record<string, unknown>> | undefined,
): Values {
  const values = want.properties ?? {};
  const versioned = want.version !== undefined && methodOf(want) === "tasks";
  return versioned ? values : unapplied(values, reported);
}

/** The writes of a create: everything, to every device — but what a device already has. */
export function planCreate(want: DesiredConfig, modelOf: ModelOf, current?: CurrentConfig): PlannedWrite[] {
  if (want.profile) return profileWrite(want.deviceIds, want);
  return groupTsl(
    want.deviceIds.map((id) => [id, valuesForNewDevice(want, current?.get(id))]),
    modelOf,
    "apply",
    want.version,
  );
}

/**
 * Property ids whose desired value differs from the previous one (new ones included). Both ways:
 * a STRUCT child dropped from the program is a change too.
 */
export function changedProperties(had: Values, want: Values): string[] {
  return Object.keys(want).filter(
    (key) =>
      !Object.hasOwn(had, key) ||
      !sameValue(want[key], had[key], key) ||
      !sameValue(had[key], want[key], key),
  );
}

/** What an update carries besides the change of declaration. */
export interface UpdateOptions {
  /** What each device shows now (see {@link CurrentConfig}). */
  readonly current?: CurrentConfig;
  /** deviceId → declared keys still owed from an earlier write (see pending.ts). */
  readonly resend?: ReadonlyMap<string, readonly string[]>;
  /** Devices whose pending PROFILE call may exist: nothing is sent to them. */
  readonly held?: ReadonlySet<string>;
  /** Whether a TSL default may be written to a property of a device (one owner: see property-ownership). */
  readonly mayReset?: MayReset;
}

/** Whether this resource may write the TSL default of `key` on `deviceId`. */
export type MayReset = (deviceId: string, key: string) => boolean;

const everyReset: MayReset = () => true;

function profileUpdate(had: DesiredConfig, want: DesiredConfig, added: string[], options: UpdateOptions) {
  const changed =
    had.version !== want.version || JSON.stringify(had.profile) !== JSON.stringify(want.profile);
  if (changed) return profileWrite(want.deviceIds, want);
  const owed = new Set([...added, ...(options.resend?.keys() ?? [])]);
  return profileWrite(
    want.deviceIds.filter((id) => owed.has(id) && !options.held?.has(id)),
    want,
  );
}

/**
 * The writes of an update from `had` (the previous state) to `want`: devices added to the set get
 * the whole configuration, devices that stay get what changed and what an earlier write still owes
 * them — in both cases less what `current` shows they already have (an `up` interrupted after its
 * tasks were created, say). Keys owed under a `version` are sent as such: the version does not show.
 */
export function planUpdate(
  had: DesiredConfig,
  want: DesiredConfig,
  modelOf: ModelOf,
  options: UpdateOptions = {},
): PlannedWrite[] {
  const { current, resend } = options;
  const mayReset = options.mayReset ?? everyReset;
  const previous = new Set(had.deviceIds);
  const added = want.deviceIds.filter((id) => !previous.has(id));
  const kept = want.deviceIds.filter((id) => previous.has(id));
  const wanted = new Set(want.deviceIds);
  const removed = had.deviceIds.filter((id) => !wanted.has(id));
  // A PATCH carries no version: devices that got their values by one (a configuration of one
  // device) have not got the version yet when the configuration moves to tasks.
  const versionChanged =
    had.version !== want.version ||
    (want.version !== undefined && methodOf(had) === "patch" && methodOf(want) === "tasks");
  if (want.profile) return profileUpdate(had, want, added, options);
  const hadValues = had.properties ?? {};
  const wantValues = want.properties ?? {};
  const changed = versionChanged ? Object.keys(wantValues) : changedProperties(hadValues, wantValues);
  const released = Object.keys(hadValues).filter((key) => !Object.hasOwn(wantValues, key));
  const keptValues = (id: string): Values => {
    const resets = had.resetOnDelete
      ? defaultsOf(
          released.filter((key) => mayReset(id, key)),
          modelOf(id),
        )
      : {};
    const owed = pick(wantValues, resend?.get(id) ?? []);
    // A new config version is sent as such; otherwise what a device already has is not sent again.
    if (versionChanged) return { ...resets, ...pick(wantValues, changed) };
    const forced = want.version !== undefined ? owed : {};
    return {
      ...unapplied({ ...resets, ...pick(wantValues, changed), ...owed }, current?.get(id)),
      ...forced,
    };
  };
  const applies = groupTsl(
    [
      ...kept.map((id): [string, Values] => [id, keptValues(id)]),
      ...added.map((id): [string, Values] => [id, valuesForNewDevice(want, current?.get(id))]),
    ],
    modelOf,
    "apply",
    want.version,
  );
  const resets = had.resetOnDelete ? planReset({ ...had, deviceIds: removed }, modelOf, mayReset) : [];
  return [...applies, ...resets];
}

/** The writes of a reset: each device's TSL defaults of every managed property it may reset. */
export function planReset(
  had: DesiredConfig,
  modelOf: ModelOf,
  mayReset: MayReset = everyReset,
): PlannedWrite[] {
  const keys = Object.keys(had.properties ?? {});
  return groupTsl(
    had.deviceIds.map((id) => [
      id,
      defaultsOf(
        keys.filter((key) => mayReset(id, key)),
        modelOf(id),
      ),
    ]),
    modelOf,
    "reset",
    had.version,
  );
}

/** Managed properties of `had` that have no usable TSL default for some device, for a warning. */
export function propertiesWithoutDefault(had: DesiredConfig, modelOf: ModelOf): string[] {
  const keys = Object.keys(had.properties ?? {});
  const missing = new Set<string>();
  for (const id of had.deviceIds) {
    const defaults = defaultsOf(keys, modelOf(id));
    for (const key of keys) if (!Object.hasOwn(defaults, key)) missing.add(key);
  }
  return [...missing];
}
