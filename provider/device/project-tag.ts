/**
 * A project is a tag, changed in place by Update a Device Information: the deviceId and the
 * device's configuration stay. The API document's table for that operation omits `project`; the
 * platform's public API reference lists it ("Update the device's project tag"). A platform that
 * answers the PUT without applying it must not pass unnoticed: the change is confirmed, and a
 * project not applied is a failure that names the device — never a delete and an add.
 */
import type { DevicePlatformClient, DeviceWriteResult, Device as PlatformDevice } from "../../sdk";
import { ResourceOperationError } from "../shared/errors";
import { projectOf, type DeclaredDevice } from "./desired";

/** A PUT the platform answered without applying the declared project. */
export class ProjectNotAppliedError extends ResourceOperationError {
  /** The device as read after the PUT: everything else applied, the project as it still is. */
  readonly device: PlatformDevice;

  constructor(message: string, device: PlatformDevice) {
    super(message);
    this.name = "ProjectNotAppliedError";
    this.device = device;
  }
}

/** `project "a"`, or `no project`, for messages. */
export function showProject(project: string): string {
  return project === "" ? "no project" : `project ${JSON.stringify(project)}`;
}

/** Whether a change from `before` to `want` changes the device's project. */
export function changesProject(
  before: { project?: string | null },
  want: { project?: string | null },
): boolean {
  return projectOf(before) !== projectOf(want);
}

/** `declared` with `project` instead of its own (none when empty or undefined). */
export function withProject<T extends { project?: string }>(declared: T, project: string | undefined): T {
  const { project: _declared, ...rest } = declared;
  return (project ? { ...rest, project } : rest) as T;
}

/**
 * The failure for `device` (read after a PUT) when it does not carry the declared project, or
 * undefined when it does. Names the serial number, the deviceId, and both projects.
 */
export function projectNotApplied(
  device: PlatformDevice,
  want: DeclaredDevice,
  operation: string,
): ProjectNotAppliedError | undefined {
  if (!changesProject(device, want)) return undefined;
  return new ProjectNotAppliedError(
    `${operation} failed: the platform answered Update a Device Information for sn=${want.sn} ` +
      `(deviceId ${device.deviceId}) but did not apply its project: declared ${showProject(projectOf(want))}, ` +
      `the platform has ${showProject(projectOf(device))}. Nothing was deleted and the deviceId is unchanged; the ` +
      "platform must accept `project` on that operation (its API reference lists it as the device's project " +
      `tag). Declare ${showProject(projectOf(device))} for this device to keep it as it is`,
    device,
  );
}

/**
 * Confirms that a PUT changing the project applied it: from the answer when it reports the
 * declared project, otherwise by reading the device (one GET). Returns the device when it was read.
 * Throws {@link ProjectNotAppliedError} when the platform still has another project.
 */
export async function confirmProject(
  client: DevicePlatformClient,
  deviceId: string,
  answer: DeviceWriteResult,
  want: DeclaredDevice,
  operation: string,
): Promise<PlatformDevice | undefined> {
  if (answer.project !== undefined && !changesProject(answer, want)) return undefined;
  const device = await client.getDevice(deviceId);
  const failure = projectNotApplied(device, want, operation);
  if (failure) throw failure;
  return device;
}
