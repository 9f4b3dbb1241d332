/**
 * `pulumi import devplatform:index:Device NAME DEVICEID` (and the `import` resource option): the
 * device read by its deviceId, declared as the platform has it, so that its next preview is empty.
 */
import { NotFoundError } from "../../sdk";
import { platformClient } from "../platform-access/platform-client";
import { describeFailure, ResourceOperationError } from "../shared/errors";
import { definedInputs, type Inputs } from "../shared/input-checks";
import type { ImportedResource } from "../core/kind";
import { declaredDevice, platformDeclaration } from "./desired";
import { deviceOutputs } from "./outputs";
import { stackMarker } from "../guardrails/stack-marker";
import { carriesOnly } from "../shared/owner-marker";
import { warnOtherOwner } from "./owner-check";

const DEVICE_ID = /^\d+$/;

/** Reads the device `deviceId` for an import: its declaration (inputs) and its state (outputs). */
export async function importDevice(deviceId: string): Promise<ImportedResource> {
  const operation = `import Device deviceId=${deviceId}`;
  if (!DEVICE_ID.test(deviceId)) {
    throw new ResourceOperationError(
      `${operation} failed: the import id must be a deviceId, a string of digits, got "${deviceId}"`,
    );
  }
  return describeFailure(operation, async () => {
    const client = await platformClient();
    try {
      const device = await client.getDevice(deviceId);
      // The platform does not report a TSL version: none is declared.
      const inputs = definedInputs({ ...platformDeclaration(device), tslVersion: undefined });
      // A device carrying this stack's owner tag keeps it recorded; one without any gains it at the next `up`.
      const marker = await stackMarker();
      const marked = marker !== undefined && carriesOnly(device.tag, marker) ? { ownerMarker: marker } : {};
      // Another stack's tag stays its: the `up` refuses the device rather than retag it (say so now).
      await warnOtherOwner(device, undefined);
      return { id: device.deviceId, inputs, outputs: { ...inputs, ...deviceOutputs(device), ...marked } };
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      throw new ResourceOperationError(
        `${operation} failed: no such device in this application (${error.message})`,
        {
          cause: error,
          code: error.code,
        },
      );
    }
  });
}

/** The declared inputs within a Device's recorded state: its fields and its options. */
export function deviceInputsOf(state: Inputs): Inputs {
  return definedInputs({
    ...declaredDevice(state),
    takeOverRps: state.takeOverRps,
    adoptExisting: state.adoptExisting,
    takeOver: state.takeOver,
  });
}
