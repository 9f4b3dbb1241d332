/**
 * The Device implementation behind the serialized provider: check, diff, create (adoption by serial
 * number, the RPS take-over), read for refresh, update, and a delete that never removes a device
 * another resource now manages.
 */
import { serialsDeclaredTwice } from "../guardrails/duplicate-serials";
import {
  ConflictError,
  NotFoundError,
  type DevicePlatformClient,
  type Device as PlatformDevice,
} from "../../sdk";
import { platformClient } from "../platform-access/platform-client";
import {
  claimDevice,
  declarationsSettled,
  declareSerials,
  describeOwner,
  otherOwner,
  releaseClaim,
} from "../guardrails/ownership";
import {
  describeFailure,
  operationFailed,
  PartialSuccessError,
  ResourceOperationError,
} from "../shared/errors";
import { definedInputs, InputChecker, type Inputs } from "../shared/input-checks";
import { sameSerial } from "../shared/serial-numbers";
import { tslVersionApplied } from "../tsl/versions";
import { adoptDevice, describeAdoption } from "./adoption";
import { deleteOverBudget, replacementOverBudget } from "./removal-charge";
import { undoAddForRefusedVersion } from "./refused-tsl-version";
import {
  addBody,
  checkDeviceFields,
  declaredDevice,
  DEVICE_FIELDS,
  platformDeclaration,
  updateBody,
  type DeclaredDevice,
} from "./desired";
import { deviceOutputs } from "./outputs";
import type { KindDefinition } from "../core/kind";
import { deviceDiff } from "./diff";
import { deviceInputsOf, importDevice } from "./import";
import { declaringOwner, deviceOwner } from "./resource-owner";
import { deviceResourceSpec } from "./schema";
import { ProjectNotAppliedError, projectNotApplied, withProject } from "./project-tag";
import { removedRpsNote, takeOverRpsRecord } from "./rps-takeover";
import { log } from "../output/log";
import { requestCount } from "../shared/quota";
import { stackMarker } from "../guardrails/stack-marker";
import {
  confirmUnmarked,
  markerOfState,
  ownerMarkerNote,
  refuseOtherOwner,
  warnOtherOwner,
} from "./owner-check";

const INPUTS = [...DEVICE_FIELDS, "takeOverRps", "adoptExisting", "takeOver"] as const;

/** The one-owner identity of the Device of the current call: its URN when the call carries it. */
interface DeviceFlags {
  takeOverRps: boolean;
  adoptExisting: boolean;
  takeOver: boolean;
}

function flagsOf(inputs: Inputs): DeviceFlags {
  return {
    takeOverRps: inputs.takeOverRps === true,
    adoptExisting: inputs.adoptExisting !== false,
    takeOver: inputs.takeOver === true,
  };
}

/**
 * The state of a device: the inputs as declared, the platform's outputs, and the owner marker the
 * device was given (`ownerMarker`: a device recorded without it is given it by the next `up`).
 */
function stateOf(inputs: Inputs, device: PlatformDevice, marker: string | undefined): Inputs {
  return { ...definedInputs(inputs), ...deviceOutputs(device), ...(marker ? { ownerMarker: marker } : {}) };
}

/** Finds the device by serial number, then adopts it or adds it; returns its deviceId. */
async function addOrAdopt(
  client: DevicePlatformClient,
  want: DeclaredDevice,
  flags: DeviceFlags,
  operation: string,
  marker: string | undefined,
): Promise<{ deviceId: string; found?: PlatformDevice }> {
  const adopt = async (existing: PlatformDevice) => {
    const options = { ...flags, owner: deviceOwner(), operation, marker, takeOverHint: "set takeOver: true" };
    const adoption = await adoptDevice(client, existing, want, options);
    await log.warn(
      `Device sn=${want.sn}: adopted deviceId ${adoption.deviceId}, which was already in this application ` +
        `(${describeAdoption(adoption, want)})`,
    );
    return { deviceId: adoption.deviceId, found: adoption.device ?? (adoption.wrote ? undefined : existing) };
  };
  // Look first: adopting a device that matches the declaration then sends no write at all.
  const existing = await client.findDeviceBySn(want.sn);
  if (existing) return adopt(existing);

  const removedRpsUrl = flags.takeOverRps ? await takeOverRpsRecord(client, want.sn) : undefined;
  try {
    const added = await client.addDevice(addBody(want, marker));
    claimDevice(added.deviceId, want.sn, deviceOwner());
    return { deviceId: added.deviceId };
  } catch (error) {
    // Added by someone else between the lookup and the add: adopt it after all.
    if (error instanceof ConflictError && error.errCode === "device_already_exists") {
      const raced = await client.findDeviceBySn(want.sn);
      if (raced) return adopt(raced);
    }
    if (removedRpsUrl === undefined) throw error;
    const failure = operationFailed(operation, error);
    throw new ResourceOperationError(`${failure.message}. ${removedRpsNote(want.sn, removedRpsUrl)}`, {
      cause: error,
      code: error instanceof ResourceOperationError ? error.code : undefined,
    });
  }
}

/** What a create the quota stopped before the device was added makes when it runs again. */
function createLeft(want: DeclaredDevice, flags: DeviceFlags): string {
  const steps = ["a lookup", "an add", ...(want.tslVersion ? ["a PUT for the TSL version"] : []), "a read"];
  const rps = flags.takeOverRps ? ", and the RPS take-over" : "";
  return `${requestCount(steps.length)} (${steps.slice(0, -1).join(", ")} and ${steps.at(-1)}${rps})`;
}

/**
 * After the device is on the platform: sets the TSL version and reads the device. Either may fail;
 * then the device is recorded anyway (a partial success), so that the next `up` finishes it rather
 * than adding a second device.
 */
async function finishCreate(
  client: DevicePlatformClient,
  inputs: Inputs,
  want: DeclaredDevice,
  deviceId: string,
  operation: string,
  marker: string | undefined,
): Promise<PlatformDevice> {
  let tslVersionSet = false;
  try {
    if (want.tslVersion) {
      await client.updateDevice(updateBody(deviceId, want, marker));
      tslVersionApplied(deviceId, want.tslVersion);
      tslVersionSet = true;
    }
    return await client.getDevice(deviceId);
  } catch (error) {
    const undone = tslVersionSet
      ? undefined
      : await undoAddForRefusedVersion(client, error, want.tslVersion, deviceId, operation);
    if (undone !== undefined) throw undone;
    // The next `up` updates the device for a TSL version not set; the rest a refresh reads.
    const left =
      want.tslVersion && !tslVersionSet
        ? `${requestCount(2)} (the next \`up\` sets the TSL version: a PUT and a read)`
        : `${requestCount(0)} for the next \`up\` (\`pulumi refresh\` reads the device's outputs: 1 request)`;
    const failure = operationFailed(operation, error, left);
    const recorded = {
      ...definedInputs(inputs),
      deviceId,
      ...(tslVersionSet ? {} : { tslVersion: undefined }),
      ...(marker ? { ownerMarker: marker } : {}),
    };
    throw new PartialSuccessError(
      `${failure.message}. The device was added as deviceId ${deviceId} and is recorded in the stack; ` +
        "run `pulumi up` again to finish it",
      deviceId,
      definedInputs(recorded),
      { cause: error, code: failure instanceof ResourceOperationError ? failure.code : undefined },
    );
  }
}

/**
 * A PUT whose project the platform did not apply: everything else was, so the state records the
 * device as it is — the declared inputs with the platform's project — and the next `up` tries the
 * project again. Nothing is deleted.
 */
function projectPartialFailure(
  error: ProjectNotAppliedError,
  inputs: Inputs,
  marker: string | undefined,
): PartialSuccessError {
  const { device } = error;
  const recorded = stateOf(withProject(inputs, device.project), device, marker);
  return new PartialSuccessError(error.message, device.deviceId, recorded, { cause: error });
}

/** Whether the device may be deleted, warning when it may not. */
async function mayDelete(
  client: DevicePlatformClient,
  deviceId: string,
  recorded: DeclaredDevice,
  recordedMarker: string | undefined,
): Promise<boolean> {
  // Deletes that run while resources are still being registered wait for their declarations.
  await declarationsSettled();
  const other = otherOwner({ deviceId, sn: recorded.sn }, deviceOwner());
  if (other) {
    await log.warn(
      `Device sn=${recorded.sn}: not deleting deviceId ${deviceId}, because ${describeOwner(other)} in this ` +
        "deployment now manages it; it stays on the platform",
    );
    return false;
  }
  let device: PlatformDevice;
  try {
    device = await client.getDevice(deviceId);
  } catch (error) {
    if (error instanceof NotFoundError) return false; // already gone counts as deleted
    throw error;
  }
  if (!sameSerial(device.sn, recorded.sn)) {
    await log.warn(
      `Device sn=${recorded.sn}: not deleting deviceId ${deviceId}, which now carries serial number ` +
        `${device.sn ?? "(none)"}; the stack forgets it and the platform keeps it`,
    );
    return false;
  }
  const refusal = refuseOtherOwner(device, await stackMarker(), recordedMarker);
  if (refusal) {
    await log.warn(`Device sn=${recorded.sn}: not deleting deviceId ${deviceId}: ${refusal}`);
    return false;
  }
  return true;
}

/** The Device kind: what both front-ends call. */
export const deviceImplementation: KindDefinition = {
  spec: deviceResourceSpec,
  importRead: (id) => importDevice(id),
  inputsOf: deviceInputsOf,

  async check(olds, news) {
    const failures = checkDeviceFields(new InputChecker(news, "Device").knownProperties(INPUTS))
      .boolean("takeOverRps")
      .boolean("adoptExisting")
      .boolean("takeOver").failures;
    const inputs = definedInputs(news);
    const overBudget = failures.length === 0 ? await replacementOverBudget(olds, inputs) : undefined;
    if (overBudget !== undefined) failures.push(overBudget);
    if (failures.length === 0 && typeof inputs.sn === "string") {
      const declaring = declaringOwner(inputs);
      declareSerials(declaring, [
        { sn: inputs.sn, project: typeof inputs.project === "string" ? inputs.project : undefined },
      ]);
      return { inputs, failures: await serialsDeclaredTwice(declaring, [inputs.sn], "sn") };
    }
    return { inputs, failures };
  },

  async diff(id, olds, news) {
    const marker = await stackMarker();
    const diff = deviceDiff(id, olds, news, marker);
    if (marker !== undefined && olds.ownerMarker !== marker) {
      await log.info(ownerMarkerNote(`Device sn=${String(news.sn)}`, 1, marker));
    }
    return diff;
  },

  async create(inputs) {
    const want = declaredDevice(inputs);
    const operation = `create Device sn=${want.sn}`;
    const client = await describeFailure(operation, () => platformClient());
    const marker = await stackMarker();
    const { deviceId, found } = await describeFailure(
      operation,
      () => addOrAdopt(client, want, flagsOf(inputs), operation, marker),
      () => createLeft(want, flagsOf(inputs)),
    ).catch((error: unknown) => {
      throw error instanceof ProjectNotAppliedError ? projectPartialFailure(error, inputs, marker) : error;
    });
    const device = found ?? (await finishCreate(client, inputs, want, deviceId, operation, marker));
    return { id: deviceId, outs: stateOf(inputs, device, marker) };
  },

  async read(id, props) {
    return describeFailure(`read Device deviceId=${id}`, async () => {
      const client = await platformClient();
      let device: PlatformDevice;
      try {
        device = await client.getDevice(id);
      } catch (error) {
        // Gone from the platform (the platform said device_not_found): refresh drops it from state.
        if (error instanceof NotFoundError) return { id: "", props: {} };
        throw error;
      }
      await warnOtherOwner(device, markerOfState(props));
      const inputs = definedInputs({
        ...platformDeclaration(device, declaredDevice(props)),
        takeOverRps: props.takeOverRps,
        adoptExisting: props.adoptExisting,
        takeOver: props.takeOver,
      });
      // The owner marker is the provider's: kept as recorded, never drift (see owner-marker.ts).
      return { id, props: stateOf(inputs, device, markerOfState(props)), inputs };
    });
  },

  async update(id, olds, news) {
    const want = declaredDevice(news);
    const operation = `update Device deviceId=${id} sn=${want.sn}`;
    return describeFailure(
      operation,
      async () => {
        const client = await platformClient();
        const marker = await stackMarker();
        await confirmUnmarked(client, id, marker, olds, { operation, takeOver: flagsOf(news).takeOver });
        await client.updateDevice(updateBody(id, want, marker));
        if (want.tslVersion) tslVersionApplied(id, want.tslVersion);
        const device = await client.getDevice(id);
        const notApplied = projectNotApplied(device, want, operation);
        if (notApplied) throw projectPartialFailure(notApplied, news, marker);
        return { outs: stateOf(news, device, marker) };
      },
      () => `${requestCount(2)} (the update is sent again: a PUT and a read)`,
    );
  },

  async delete(id, props) {
    const recorded = declaredDevice(props);
    await describeFailure(
      `delete Device deviceId=${id} sn=${recorded.sn}`,
      async () => {
        const client = await platformClient();
        if (!(await mayDelete(client, id, recorded, markerOfState(props)))) return;
        const overBudget = await deleteOverBudget(recorded.sn);
        if (overBudget !== undefined) throw new ResourceOperationError(overBudget);
        try {
          await client.deleteDevice(id);
        } catch (error) {
          // Already gone counts as deleted.
          if (!(error instanceof NotFoundError)) throw error;
        }
        releaseClaim(id);
      },
      () => `${requestCount(2)} (a read and a DELETE)`,
    );
  },
};
