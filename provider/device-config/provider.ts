/**
 * The DeviceConfig implementation behind the serialized provider: check (shape, then the TSL models
 * of known devices), diff per property, create/update by PATCH or configuration tasks, read that
 * compares only the managed properties, and delete that restores TSL defaults on request.
 */
import * as pulumi from "@pulumi/pulumi";
import { NotFoundError } from "../../sdk";
import { appliedAny, executeWrites, notAppliedMessage, type WriteOutcome } from "./apply";
import { diffConfig } from "./diff";
import { checkConfigInputs, configId, desiredConfig, knownDeviceIds, type DesiredConfig } from "./inputs";
import {
  planCreate,
  planReset,
  planUpdate,
  propertiesWithoutDefault,
  type ModelOf,
  type PlannedWrite,
} from "./plan";
import { currentConfigs, readConfiguration } from "./read";
import { inputsOf, methodOf, stateAfterWrites, taskIdsOf } from "./state";
import { assertValidConfiguration, validateConfiguration } from "./validation";
import {
  describeFailure,
  operationFailed,
  PartialSuccessError,
  ResourceOperationError,
} from "../shared/errors";
import type { Inputs } from "../shared/input-checks";
import { platformClient } from "../runtime/platform-client";
import { thingModelsOf } from "../tsl/models";
import { pendingTslVersion } from "../tsl/versions";
import { isPlainObject } from "../tsl/validate";

type Implementation = Omit<Required<pulumi.dynamic.ResourceProvider>, "configure">;

/** `deviceIds=1` or `deviceIds=1,2 and 1198 more`, for operation names in messages. */
function describeDevices(deviceIds: readonly string[]): string {
  const shown = deviceIds.slice(0, 2).join(",");
  return deviceIds.length > 2 ? `deviceIds=${shown} and ${deviceIds.length - 2} more` : `deviceIds=${shown}`;
}

/** Whether the properties and devices to validate are those of the previous, accepted inputs. */
function unchanged(olds: Inputs, news: Inputs): boolean {
  const ids = (value: unknown) => JSON.stringify([...(Array.isArray(value) ? value : [value])].sort());
  return (
    ids(olds.deviceIds) === ids(news.deviceIds) &&
    JSON.stringify(olds.properties) === JSON.stringify(news.properties) &&
    olds.version === news.version
  );
}

/** Validates before a write (cached models make this free after check) and returns the models. */
async function modelsForWrite(
  operation: string,
  config: DesiredConfig,
  alsoFor: string[] = [],
): Promise<ModelOf> {
  if (!config.properties) return () => undefined;
  const { models } = await assertValidConfiguration(operation, config.deviceIds, config.properties);
  const extra =
    alsoFor.length > 0 ? (await thingModelsOf(await platformClient(), alsoFor)).models : new Map();
  return (deviceId) => models.get(deviceId) ?? extra.get(deviceId);
}

/** The devices that writes of TSL values would reach. */
function devicesWithWrites(writes: readonly PlannedWrite[]): string[] {
  const devices = writes.filter((w) => w.type === "TSL" && w.purpose === "apply").flatMap((w) => w.deviceIds);
  return [...new Set(devices)];
}

/**
 * Turns writes that did not all succeed into the right failure. A write that failed after others
 * succeeded (a later chunk of tasks, say) is a partial success: state records the devices that got
 * their tasks, and drops the others from `deviceIds`, so that the next `up` reads those devices and
 * writes only what they lack — never a second task for a write whose outcome was unknown. A create
 * that achieved nothing is a plain failure (nothing to record).
 */
function failIfPartial(
  operation: string,
  id: string,
  outs: Inputs,
  outcome: WriteOutcome,
  kind: "create" | "update",
): void {
  if (outcome.error !== undefined) {
    if (kind === "create" && !appliedAny(outcome)) throw outcome.error;
    const configured = Object.keys(outcome.taskIds).length;
    const done =
      configured > 0
        ? `Tasks were created for ${configured} device(s); they are recorded in the stack`
        : "Nothing was confirmed as applied";
    throw new PartialSuccessError(
      `${operationFailed(operation, outcome.error).message}. ${done}, and the next \`pulumi up\` writes only ` +
        "what the other devices do not already have",
      id,
      outs,
      { cause: outcome.error },
    );
  }
  if (outcome.notApplied.length > 0)
    throw new PartialSuccessError(notAppliedMessage(operation, outcome), id, outs);
}

/** The DeviceConfig methods the serialized provider calls (configure is the shared runtime's). */
export const deviceConfigImplementation: Implementation = {
  async check(olds, news) {
    const { inputs, failures } = checkConfigInputs(news);
    const deviceIds = knownDeviceIds(inputs);
    const properties = inputs.properties;
    // Inputs accepted before need no second look; a preview of unknown devices is validated at create.
    if (failures.length > 0 || !deviceIds || !isPlainObject(properties) || unchanged(olds, inputs)) {
      return { inputs, failures };
    }
    // A device switching TSL version in this deployment is validated against its new model at the write.
    const checkable = deviceIds.filter((id) => pendingTslVersion(id) === undefined);
    if (checkable.length === 0) return { inputs, failures };
    const validation = await describeFailure(`check DeviceConfig ${describeDevices(deviceIds)}`, () =>
      validateConfiguration(checkable, properties),
    );
    return { inputs, failures: validation.failures };
  },

  async diff(_id, olds, news) {
    return diffConfig(olds, news);
  },

  async create(inputs) {
    const want = desiredConfig(inputs);
    const id = configId(want.deviceIds);
    const operation = `create DeviceConfig ${describeDevices(want.deviceIds)}`;
    return describeFailure(operation, async () => {
      const modelOf = await modelsForWrite(operation, want);
      const current = want.properties ? await currentConfigs(want.deviceIds) : undefined;
      const outcome = await executeWrites(planCreate(want, modelOf, current), methodOf(want) === "patch");
      const outs = stateAfterWrites(inputs, want, undefined, outcome);
      failIfPartial(operation, id, outs, outcome, "create");
      return { id, outs };
    });
  },

  async read(id, props) {
    if (!Array.isArray(props.deviceIds) && typeof props.deviceIds !== "string") {
      throw new ResourceOperationError(
        `read DeviceConfig ${id} failed: a DeviceConfig cannot be imported; declare it in the program and run ` +
          "`pulumi up` (values the devices already have are simply written again)",
      );
    }
    const state = desiredConfig(props);
    // A PROFILE template's keys are not properties that Get Configuration reports.
    if (!state.properties) return { id, props, inputs: inputsOf(props) };
    return describeFailure(`read DeviceConfig ${describeDevices(state.deviceIds)}`, async () => {
      const reading = await readConfiguration(state);
      // Every device gone from the platform: the configuration went with them.
      if (reading.deviceIds.length === 0) return { id: "", props: {} };
      const taskIds = Object.fromEntries(
        Object.entries(taskIdsOf(props)).filter(([deviceId]) => reading.deviceIds.includes(deviceId)),
      );
      const outs = { ...props, deviceIds: reading.deviceIds, properties: reading.properties, taskIds };
      return { id, props: outs, inputs: inputsOf(outs) };
    });
  },

  async update(id, olds, news) {
    const had = desiredConfig(olds);
    const want = desiredConfig(news);
    const operation = `update DeviceConfig ${describeDevices(want.deviceIds)}`;
    return describeFailure(operation, async () => {
      const removed = had.resetOnDelete ? had.deviceIds.filter((d) => !want.deviceIds.includes(d)) : [];
      const modelOf = await modelsForWrite(operation, want, removed);
      // Plan once to learn which devices get writes, read those, and plan again without what they have.
      const toRead = devicesWithWrites(planUpdate(had, want, modelOf));
      const current = toRead.length > 0 ? await currentConfigs(toRead) : undefined;
      const outcome = await executeWrites(
        planUpdate(had, want, modelOf, current),
        methodOf(want) === "patch",
      );
      const outs = stateAfterWrites(news, want, { config: had, outputs: olds }, outcome);
      failIfPartial(operation, id, outs, outcome, "update");
      return { outs };
    });
  },

  async delete(id, props) {
    const had = desiredConfig(props);
    if (!had.resetOnDelete || !had.properties) {
      // Nothing to write, but a delete must not succeed against the wrong server: the rest of the
      // stack's deletes would fail there, and the state would be left half-forgotten.
      await describeFailure(`delete DeviceConfig ${id}`, async () => (await platformClient()).verifyAccess());
      return;
    }
    const operation = `delete DeviceConfig ${describeDevices(had.deviceIds)} (resetOnDelete)`;
    await describeFailure(operation, async () => {
      const { models, missing } = await thingModelsOf(await platformClient(), had.deviceIds);
      // Devices gone from the platform have no configuration left to reset.
      const present = { ...had, deviceIds: had.deviceIds.filter((d) => !missing.has(d)) };
      const modelOf: ModelOf = (deviceId) => models.get(deviceId);
      const withoutDefault = propertiesWithoutDefault(present, modelOf);
      if (withoutDefault.length > 0) {
        await pulumi.log.warn(
          `DeviceConfig ${id}: no TSL defaultValue to restore for ${withoutDefault.join(", ")}; left as they are`,
        );
      }
      const outcome = await executeWrites(planReset(present, modelOf), methodOf(had) === "patch");
      // A device deleted meanwhile has no configuration left to reset.
      if (outcome.error instanceof NotFoundError) return;
      if (outcome.error !== undefined) throw outcome.error;
      if (outcome.notApplied.length > 0)
        throw new ResourceOperationError(notAppliedMessage(operation, outcome));
    });
  },
};
