/**
 * A DeviceConfig's `properties` validated against the TSL models of its devices: in `check` when
 * the device ids are known, and again before any write (a preview may not have known them). One
 * validation per distinct model; each failure names the property, the rule and a device whose
 * model sets the rule.
 */
import type { CheckFailure } from "../shared/input-checks";
import { ResourceOperationError } from "../shared/errors";
import { platformClient } from "../platform-access/platform-client";
import { groupByModel, thingModelsOf, type DeviceModels } from "../tsl/models";
import type { IndexedModel } from "../tsl/model-index";
import { validateProperties, type TslProblem } from "../tsl/validate";

type Failure = CheckFailure;

/** `device X`, or `device X and N other devices` for a model shared by a fleet. */
export function modelSource(deviceIds: readonly string[]): string {
  const [first] = deviceIds;
  const others = deviceIds.length - 1;
  return others === 0
    ? `device ${first}`
    : `device ${first} and ${others} other device${others === 1 ? "" : "s"}`;
}

/** A validation problem as a check failure: `DeviceConfig.properties.<path> <message>`. */
export function problemToFailure(problem: TslProblem): Failure {
  const property = `properties.${problem.path}`;
  return { property, reason: `DeviceConfig.${property} ${problem.message}` };
}

/** Validates `properties` once per model group; identical failures (same words) are given once. */
export function failuresForGroups(
  properties: Readonly<Record<string, unknown>>,
  groups: readonly { model: IndexedModel; deviceIds: readonly string[] }[],
): Failure[] {
  const failures = new Map<string, Failure>();
  for (const group of groups) {
    for (const problem of validateProperties(properties, group.model, modelSource(group.deviceIds))) {
      const failure = problemToFailure(problem);
      if (!failures.has(failure.reason)) failures.set(failure.reason, failure);
    }
  }
  return [...failures.values()];
}

function missingDeviceFailures(deviceIds: readonly string[], models: DeviceModels): Failure[] {
  const failures: Failure[] = [];
  deviceIds.forEach((deviceId, index) => {
    const error = models.missing.get(deviceId);
    if (!error) return;
    const property = `deviceIds[${index}]`;
    failures.push({
      property,
      reason: `DeviceConfig.${property} names device ${deviceId}, which is not on the platform (${error.message})`,
    });
  });
  return failures;
}

/** The result of validating a configuration against its devices' models. */
export interface ConfigValidation {
  readonly failures: Failure[];
  readonly models: DeviceModels;
}

/**
 * Fetches the models of `deviceIds` (cached per deployment) and validates `properties` against
 * them. Devices the platform does not know are failures too.
 */
export async function validateConfiguration(
  deviceIds: readonly string[],
  properties: Readonly<Record<string, unknown>>,
): Promise<ConfigValidation> {
  const models = await thingModelsOf(await platformClient(), deviceIds);
  const failures = [
    ...missingDeviceFailures(deviceIds, models),
    ...failuresForGroups(properties, groupByModel(models.models)),
  ];
  return { failures, models };
}

/**
 * The validation before a write: every failure in one error, so nothing is written when any value
 * is wrong. Returns the models for the wire conversion.
 */
export async function assertValidConfiguration(
  operation: string,
  deviceIds: readonly string[],
  properties: Readonly<Record<string, unknown>>,
): Promise<DeviceModels> {
  const { failures, models } = await validateConfiguration(deviceIds, properties);
  if (failures.length > 0) {
    const reasons = failures.map((f) => `  - ${f.reason}`).join("\n");
    throw new ResourceOperationError(
      `${operation} failed: the configuration does not fit the devices' TSL models; nothing was written:\n${reasons}`,
    );
  }
  return models;
}
