/**
 * Create Configuration Tasks for any number of devices: one call per chunk of at most 500 (the
 * platform's limit), never re-sent when its outcome is unknown, each chunk's success or failure told
 * to the caller before the next.
 */
import { DevicePlatformError, withNote } from "./errors";
import type { DeviceTaskRelation } from "./schemas/config";

/** Devices per Create Configuration Tasks call: the platform's limit. */
export const MAX_DEVICES_PER_TASK = 500;

/** Options of {@link DevicePlatformClient.createConfigTasks}. */
export interface CreateConfigTasksOptions {
  /**
   * Called after each chunk of at most 500 devices succeeded, with that chunk's relations, before
   * the next chunk is sent: a caller can record which devices got tasks even when a later chunk
   * fails. If it throws, no further chunk is sent and its exception is passed on unchanged.
   */
  readonly onChunkCreated?: (relations: DeviceTaskRelation[]) => void;
  /**
   * Called when a chunk's call failed, before its error is thrown, with the devices that call
   * carried (exactly, in the order sent) and its error: only those devices may have got a task, and
   * only if `error.outcomeUnknown` (an answer lost after the call may have been performed); the
   * devices of later chunks were never sent. If it throws, its exception is passed on instead.
   */
  readonly onChunkFailed?: (failure: TaskChunkFailure) => void;
}

/** A Create Configuration Tasks call that failed: see `CreateConfigTasksOptions.onChunkFailed`. */
export interface TaskChunkFailure {
  /** The devices the failed call carried. */
  readonly deviceIds: readonly string[];
  readonly error: DevicePlatformError;
}

/**
 * Sends `ids` in chunks through `send` (one call each, with the note its error carries when its
 * outcome is unknown); an error says what earlier chunks created, and `options` hear of each chunk.
 */
export async function createTasksInChunks(
  ids: readonly string[],
  options: CreateConfigTasksOptions,
  send: (chunk: readonly string[], ambiguousNote: string) => Promise<DeviceTaskRelation[]>,
): Promise<DeviceTaskRelation[]> {
  const relations: DeviceTaskRelation[] = [];
  for (let start = 0; start < ids.length; start += MAX_DEVICES_PER_TASK) {
    const created = await sendChunk(ids, start, options.onChunkFailed, send);
    relations.push(...created);
    // Outside the chunk's error handling: an exception of the caller's own is passed on as is.
    options.onChunkCreated?.([...created]);
  }
  return relations;
}

/**
 * One Create Configuration Tasks call for the devices from `start`; its error says what came
 * before, and `onFailed` is told which devices that call carried.
 */
async function sendChunk(
  ids: readonly string[],
  start: number,
  onFailed: CreateConfigTasksOptions["onChunkFailed"],
  send: (chunk: readonly string[], ambiguousNote: string) => Promise<DeviceTaskRelation[]>,
): Promise<DeviceTaskRelation[]> {
  const chunk = ids.slice(start, start + MAX_DEVICES_PER_TASK);
  try {
    return await send(chunk, ambiguousTasksNote(start, chunk.length, ids.length));
  } catch (error) {
    if (!(error instanceof DevicePlatformError)) throw error;
    const noted =
      start === 0
        ? error
        : withNote(error, `tasks for the first ${start} of ${ids.length} devices had been created`);
    onFailed?.({ deviceIds: chunk, error: noted });
    throw noted;
  }
}

/** What to say when a chunk of tasks may or may not have been created: which devices, what to check. */
function ambiguousTasksNote(start: number, size: number, total: number): string {
  const which =
    total !== size
      ? `devices ${start + 1}–${start + size} of ${total}`
      : size === 1
        ? "this device"
        : `these ${size} devices`;
  return (
    `tasks for ${which} may have been created, so the request was not repeated (that could create ` +
    `them twice); check the configuration of the devices concerned (getDeviceConfig), or the ` +
    `platform's task notifications, before creating tasks for them again`
  );
}
