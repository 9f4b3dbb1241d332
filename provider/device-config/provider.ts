/**
 * The DeviceConfig implementation behind the serialized provider: check (shape, then the TSL models
 * of known devices), diff per property, create/update by PATCH or configuration tasks, read that
 * compares only the managed properties, and delete that restores TSL defaults on request.
 */
import { NotFoundError } from "../../sdk";
import { executeWrites, notAppliedMessage } from "./apply";
import type { KindDefinition } from "../core/kind";
import { deviceConfigDiff } from "./diff";
import { importDeviceConfig } from "./import";
import { deviceConfigResourceSpec, deviceConfigTypes } from "./schema";
import { failIfPartial, heldMessage, resendWarning } from "./outcome-messages";
import { pendingOf, resolvePending, type PendingWork } from "./pending";
import { checkConfigInputs, configId, desiredConfig, knownDeviceIds, type DesiredConfig } from "./inputs";
import {
  planCreate,
  planReset,
  planUpdate,
  propertiesWithoutDefault,
  type CurrentConfig,
  type MayReset,
  type ModelOf,
  type PlannedWrite,
} from "./plan";
import { currentConfigs, readConfiguration } from "./read";
import { inputsOf, methodOf, stateAfterWrites, taskIdsOf } from "./state";
import { assertValidConfiguration, validateConfiguration } from "./validation";
import { describeFailure, PartialSuccessError, ResourceOperationError } from "../shared/errors";
import type { Inputs } from "../shared/input-checks";
import { declarationsSettled } from "../guardrails/ownership";
import { platformClient } from "../platform-access/platform-client";
import {
  declareProperties,
  resetsOfOthers,
  skippedResetMessages,
  type PropertyPair,
} from "../guardrails/property-ownership";
import { thingModelsOf } from "../tsl/models";
import { claimProperties } from "../guardrails/property-claims";
import { devicesOfOtherStacks, recordedMarker, withOwnerMarker } from "./owner-resets";
import { pendingTslVersion } from "../tsl/versions";
import { isPlainObject } from "../tsl/validate";
import { log } from "../output/log";

/** The shape check's failure for a property set to null (`properties.reportInterval`). */
const NULL_VALUE = /^properties\.[^.[]+$/;

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

/** Records in the one-owner record that this configuration manages its properties on its devices. */
function declareManaged(config: DesiredConfig): void {
  if (config.properties && config.deviceIds.length > 0)
    declareProperties(
      { id: configId(config.deviceIds), deviceIds: config.deviceIds },
      config.deviceIds,
      Object.keys(config.properties),
    );
}

/**
 * Of the (device, property) pairs this resource is about to reset, those another DeviceConfig of
 * the deployment manages are left alone, with a warning naming them and their new owner.
 */
async function resetsAllowed(
  subject: string,
  pairs: PropertyPair[],
  recorded: string | undefined,
): Promise<MayReset | undefined> {
  if (pairs.length === 0) return undefined;
  // An update can run while the engine still registers the resources that take the properties over.
  await declarationsSettled();
  const { mayReset, skipped } = resetsOfOthers(pairs);
  for (const message of skippedResetMessages(subject, skipped)) await log.warn(message);
  const elsewhere = await devicesOfOtherStacks(
    subject,
    pairs.map((pair) => pair.deviceId),
    recorded,
  );
  return elsewhere.size === 0
    ? mayReset
    : (deviceId, key) => !elsewhere.has(deviceId) && mayReset(deviceId, key);
}

/** The pairs an update would reset: released properties of kept devices, every property of removed ones. */
function releasedPairs(had: DesiredConfig, want: DesiredConfig): PropertyPair[] {
  if (!had.resetOnDelete || !had.properties) return [];
  const hadKeys = Object.keys(had.properties);
  const wantKeys = new Set(Object.keys(want.properties ?? {}));
  const wanted = new Set(want.deviceIds);
  return had.deviceIds.flatMap((deviceId) =>
    hadKeys.filter((key) => !wanted.has(deviceId) || !wantKeys.has(key)).map((key) => ({ deviceId, key })),
  );
}

/** Reads the devices the update writes TSL values to, and those with pending TSL work. */
async function readBeforeUpdate(
  had: DesiredConfig,
  want: DesiredConfig,
  modelOf: ModelOf,
  pending: PendingWork,
): Promise<CurrentConfig | undefined> {
  const resend = new Map(Object.entries(pending).map(([deviceId, entry]) => [deviceId, entry.keys]));
  const toRead = devicesWithWrites(planUpdate(had, want, modelOf, { resend }));
  return toRead.length > 0 ? currentConfigs(toRead) : undefined;
}

/** The DeviceConfig kind: what both front-ends call. */
export const deviceConfigImplementation: KindDefinition = {
  spec: deviceConfigResourceSpec,
  types: deviceConfigTypes,
  importRead: (id) => importDeviceConfig(id),
  inputsOf,

  async check(olds, news) {
    const { inputs, failures } = checkConfigInputs(news);
    const deviceIds = knownDeviceIds(inputs);
    const properties = inputs.properties;
    if (failures.length === 0 && deviceIds && isPlainObject(properties)) {
      const conflicts = claimProperties(configId(deviceIds), deviceIds, properties);
      if (conflicts.length > 0) return { inputs, failures: conflicts };
    }
    if (failures.length === 0 && deviceIds) declareManaged(desiredConfig(inputs));
    // A property left null is refused by the shape check; the others are still checked against the
    // model, so that a wrong value beside it is named in the same preview, not the next one.
    const nullsOnly = failures.length > 0 && failures.every((f) => NULL_VALUE.test(f.property));
    if (
      (failures.length > 0 && !nullsOnly) ||
      !deviceIds ||
      !isPlainObject(properties) ||
      unchanged(olds, inputs)
    ) {
      return { inputs, failures };
    }
    // A device switching TSL version in this deployment is validated against its new model at the write.
    const checkable = deviceIds.filter((id) => pendingTslVersion(id) === undefined);
    if (checkable.length === 0) return { inputs, failures };
    const given = Object.fromEntries(Object.entries(properties).filter(([, value]) => value !== null));
    const validation = await describeFailure(`check DeviceConfig ${describeDevices(deviceIds)}`, () =>
      validateConfiguration(checkable, given),
    );
    return { inputs, failures: [...failures, ...validation.failures] };
  },

  async diff(id, olds, news) {
    return deviceConfigDiff(id, olds, news);
  },

  async create(inputs) {
    const want = desiredConfig(inputs);
    const id = configId(want.deviceIds);
    const operation = `create DeviceConfig ${describeDevices(want.deviceIds)}`;
    return describeFailure(operation, async () => {
      declareManaged(want);
      const modelOf = await modelsForWrite(operation, want);
      const current = want.properties ? await currentConfigs(want.deviceIds) : undefined;
      const at = new Date();
      const outcome = await executeWrites(planCreate(want, modelOf, current), methodOf(want) === "patch");
      const outs = await withOwnerMarker(stateAfterWrites(inputs, want, undefined, outcome, { current, at }));
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
      const pending = Object.fromEntries(
        Object.entries(pendingOf(props)).filter(([deviceId]) => reading.deviceIds.includes(deviceId)),
      );
      // The host cannot send an undefined value: `pending` is left out when nothing is owed.
      const { pending: _owed, ...rest } = props;
      const outs = {
        ...rest,
        deviceIds: reading.deviceIds,
        properties: reading.properties,
        taskIds,
        ...(Object.keys(pending).length > 0 ? { pending } : {}),
      };
      return { id, props: outs, inputs: inputsOf(outs) };
    });
  },

  async update(id, olds, news) {
    const had = desiredConfig(olds);
    const want = desiredConfig(news);
    const operation = `update DeviceConfig ${describeDevices(want.deviceIds)}`;
    return describeFailure(operation, async () => {
      declareManaged(want);
      const mayReset = await resetsAllowed(
        `DeviceConfig ${id}`,
        releasedPairs(had, want),
        recordedMarker(olds),
      );
      const removed = had.resetOnDelete ? had.deviceIds.filter((d) => !want.deviceIds.includes(d)) : [];
      const modelOf = await modelsForWrite(operation, want, removed);
      const pending = pendingOf(olds);
      const current = await readBeforeUpdate(had, want, modelOf, pending);
      const resolution = resolvePending(
        pending,
        {
          deviceIds: want.deviceIds,
          keys: Object.keys(want.properties ?? want.profile ?? {}),
          type: want.profile ? "PROFILE" : "TSL",
          sentValues: had.properties ?? {},
          superseded:
            had.version !== want.version || JSON.stringify(had.profile) !== JSON.stringify(want.profile),
        },
        current,
      );
      if (resolution.resentAfterUnknown.length > 0) {
        const detail = pending[resolution.resentAfterUnknown[0] as string]?.unknown?.detail ?? "no answer";
        await log.warn(resendWarning(id, resolution.resentAfterUnknown, detail));
      }
      const held = new Set(Object.keys(resolution.held));
      const at = new Date();
      const outcome = await executeWrites(
        planUpdate(had, want, modelOf, { current, resend: resolution.resend, held, mayReset }),
        methodOf(want) === "patch",
      );
      const carried = { held: resolution.held, current, at };
      const outs = await withOwnerMarker(
        stateAfterWrites(news, want, { config: had, outputs: olds }, outcome, carried),
      );
      failIfPartial(operation, id, outs, outcome, "update");
      if (held.size > 0)
        throw new PartialSuccessError(heldMessage(operation, resolution.held, want.version), id, outs);
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
      const keys = Object.keys(had.properties ?? {});
      const pairs = present.deviceIds.flatMap((deviceId) => keys.map((key) => ({ deviceId, key })));
      const mayReset = await resetsAllowed(`DeviceConfig ${id}`, pairs, recordedMarker(props));
      const withoutDefault = propertiesWithoutDefault(present, modelOf);
      if (withoutDefault.length > 0) {
        await log.warn(
          `DeviceConfig ${id}: no TSL defaultValue to restore for ${withoutDefault.join(", ")}; left as they are`,
        );
      }
      const outcome = await executeWrites(planReset(present, modelOf, mayReset), methodOf(had) === "patch");
      // A device deleted meanwhile has no configuration left to reset.
      if (outcome.error instanceof NotFoundError) return;
      if (outcome.error !== undefined) throw outcome.error;
      if (outcome.notApplied.length > 0)
        throw new ResourceOperationError(notAppliedMessage(operation, outcome));
    });
  },
};
