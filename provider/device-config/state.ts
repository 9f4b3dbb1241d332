/**
 * The outputs (state) of a DeviceConfig after writes: what was applied, not merely what was
 * desired. A PATCH that the platform took only in part keeps, for each property not applied, the
 * value the device had before (or nothing, when the property was new); devices that got no task
 * leave `deviceIds`, so that the next `up` configures them as devices added.
 */
import { definedInputs, type Inputs } from "../shared/input-checks";
import type { WriteOutcome } from "./apply";
import { CONFIG_INPUTS, type DesiredConfig } from "./inputs";
import { isPlainObject } from "../tsl/validate";

/** How a configuration is written: PATCH for one device with properties, tasks otherwise. */
export type ConfigMethod = "patch" | "tasks";

/** The method of a desired configuration. */
export function methodOf(config: DesiredConfig): ConfigMethod {
  return config.deviceIds.length === 1 && config.properties !== undefined ? "patch" : "tasks";
}

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

/**
 * The outputs after writing `want` over `had` (undefined for a create): the inputs as given, with
 * `deviceIds` and `properties` narrowed to what was applied, plus `method` and `taskIds`.
 */
export function stateAfterWrites(
  inputs: Inputs,
  want: DesiredConfig,
  had: { config: DesiredConfig; outputs: Inputs } | undefined,
  outcome: WriteOutcome,
): Inputs {
  const method = methodOf(want);
  const lost = new Set(
    outcome.notApplied.filter((n) => n.purpose === "apply" && method === "tasks").map((n) => n.deviceId),
  );
  const deviceIds = want.deviceIds.filter((id) => !lost.has(id));
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
  return definedInputs({ ...inputsOf(inputs), deviceIds, properties, method, taskIds });
}
