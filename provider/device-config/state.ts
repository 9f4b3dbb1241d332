/**
 * The outputs (state) of a DeviceConfig after writes: never more than the platform accepted. A PATCH
 * that the platform took only in part keeps, for each property not applied, the value the device had
 * before (or nothing, when the property was new). Configuration tasks keep the declaration and record
 * in `pending` (see pending.ts) what each device did not get, so that the next `up` sends it.
 */
import { DevicePlatformError, redactText } from "../../sdk";
import { definedInputs, type Inputs } from "../shared/input-checks";
import type { NotApplied, WriteOutcome } from "./apply";
import { CONFIG_INPUTS, methodOf, type DesiredConfig } from "./inputs";
import type { PendingWork } from "./pending";
import { unapplied, type CurrentConfig } from "./plan";
import { isPlainObject } from "../tsl/validate";

export { methodOf, type ConfigMethod } from "./inputs";

/** The inputs part of a state or of checked inputs, without outputs such as `taskIds`. */
export function inputsOf(values: Inputs): Inputs {
  return definedInputs(Object.fromEntries(CONFIG_INPUTS.map((key) => [key, values[key]])));
}

function pickIds(
  taskIds: Readonly<Record<string, string>>,
  deviceIds: readonly string[],
): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const id of deviceIds) if (taskIds[id] !== undefined) picked[id] = taskIds[id];
  return picked;
}

/** The task ids recorded in a state's outputs. */
export function taskIdsOf(outputs: Inputs): Record<string, string> {
  const value = outputs.taskIds;
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, string>)
    : {};
}

/** Properties of a one-device configuration after a PATCH, keeping prior values where it failed. */
function patchedProperties(had: DesiredConfig | undefined, want: DesiredConfig, outcome: WriteOutcome) {
  const [deviceId] = want.deviceIds;
  const failed = new Set(
    outcome.notApplied.filter((n) => n.deviceId === deviceId && n.purpose === "apply").flatMap((n) => n.keys),
  );
  const previous = had?.deviceIds.includes(deviceId as string) ? (had.properties ?? {}) : {};
  const properties: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(want.properties ?? {})) {
    const applied = failed.has(key) ? undefined : withoutFailedChildren(key, value, failed);
    if (applied !== undefined) properties[key] = applied;
    else if (Object.hasOwn(previous, key)) properties[key] = previous[key];
  }
  return properties;
}

/** A STRUCT value without the children the platform did not apply; undefined when none was. */
function withoutFailedChildren(key: string, value: unknown, failed: ReadonlySet<string>): unknown {
  if (!isPlainObject(value)) return value;
  const kept = Object.entries(value).filter(
    ([child]) => !failed.has(child.startsWith(`${key}.`) ? child : `${key}.${child}`),
  );
  if (kept.length === Object.keys(value).length) return value;
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/** The failure of a lost call in a few words: status or transport reason, and the requestId. */
export function describeLostCall(error: unknown): string {
  if (!(error instanceof DevicePlatformError))
    return redactText(error instanceof Error ? error.message : String(error));
  const what =
    error.status !== undefined
      ? `HTTP ${error.status}${error.errCode ? ` ${error.errCode}` : ""}`
      : (error.reason ?? "no answer");
  // Kept in state: redacted whole, as every text the package lets out.
  return redactText(
    `${error.method} ${error.path}: ${what}${error.requestId ? `, requestId ${error.requestId}` : ""}`,
  );
}

/** What the state keeps besides the outcome of this run's writes. */
export interface CarriedWork {
  /** Pending entries left untouched by this run (a PROFILE call that may exist). */
  readonly held?: PendingWork;
  /** What the devices showed before the writes, to tell whether a lost call can be seen later. */
  readonly current?: CurrentConfig;
  /** The time of the writes. */
  readonly at?: Date;
}

/**
 * The work a task write left owed, per device: the keys of every write the device did not get,
 * marked `unknown` when the call that carried them got no answer.
 */
export function pendingAfterWrites(
  want: DesiredConfig,
  outcome: WriteOutcome,
  carried: CarriedWork,
): PendingWork {
  const declared = new Set(want.deviceIds);
  const work: PendingWork = Object.fromEntries(
    Object.entries(carried.held ?? {}).filter(([deviceId]) => declared.has(deviceId)),
  );
  const since = (carried.at ?? new Date()).toISOString();
  for (const missed of outcome.notApplied) {
    if (missed.purpose !== "apply" || !declared.has(missed.deviceId)) continue;
    const before = work[missed.deviceId];
    const keys = [...new Set([...(before?.keys ?? []), ...missed.keys])];
    const unknown =
      before?.unknown ??
      (missed.unknown
        ? {
            since,
            detail: describeLostCall(outcome.error),
            visible: visibleChange(want, missed, carried.current),
          }
        : undefined);
    work[missed.deviceId] = unknown ? { keys, unknown } : { keys };
  }
  return work;
}

/** Whether a TSL write changes a value the device showed: only then can its configuration confirm it. */
function visibleChange(want: DesiredConfig, missed: NotApplied, current: CurrentConfig | undefined): boolean {
  const reported = current?.get(missed.deviceId);
  if (missed.type !== "TSL" || !want.properties || reported === undefined) return false;
  const sent = Object.fromEntries(missed.keys.map((key) => [key, want.properties?.[key]]));
  return Object.keys(unapplied(sent, reported)).length > 0;
}

/**
 * The outputs after writing `want` over `had` (undefined for a create): the inputs as given, plus
 * `method`, `taskIds` (a device keeps its previous task id until a new task is created for it) and
 * `pending` (what the platform has not confirmed; absent when nothing is). A one-device PATCH keeps,
 * for each property not applied, the value the device had before.
 */
export function stateAfterWrites(
  inputs: Inputs,
  want: DesiredConfig,
  had: { config: DesiredConfig; outputs: Inputs } | undefined,
  outcome: WriteOutcome,
  carried: CarriedWork = {},
): Inputs {
  const method = methodOf(want);
  const deviceIds = want.deviceIds;
  const taskIds = {
    ...pickIds(had ? taskIdsOf(had.outputs) : {}, deviceIds),
    ...pickIds(outcome.taskIds, deviceIds),
  };
  const properties =
    want.properties === undefined
      ? undefined
      : method === "patch"
        ? patchedProperties(had?.config, want, outcome)
        : want.properties;
  const work = method === "tasks" ? pendingAfterWrites(want, outcome, carried) : {};
  const pending = Object.keys(work).length > 0 ? work : undefined;
  return definedInputs({ ...inputsOf(inputs), deviceIds, properties, method, taskIds, pending });
}
