/**
 * Carries out planned writes: Update Device Properties Incrementally (PATCH) for a configuration of
 * one device, Create Configuration Tasks otherwise (the SDK sends one call per 500 devices).
 *
 * A PATCH answers with the properties it applied, which may be fewer than were sent; a task call
 * answers with one task per device, and the platform applies the task shortly afterwards and
 * reports its outcome by webhook only, so a task counts as applied when it was created.
 */
import { DevicePlatformError, type DeviceTaskRelation, type TaskChunkFailure } from "../../sdk";
import type { PlannedWrite } from "./plan";
import { platformClient } from "../platform-access/platform-client";
import { isPlainObject } from "../tsl/validate";
import { Progress } from "../output/progress";

/** Keys a device did not get from one write. */
export interface NotApplied {
  readonly deviceId: string;
  readonly keys: string[];
  readonly purpose: PlannedWrite["purpose"];
  readonly type: PlannedWrite["type"];
  /**
   * True when the task call that carried them got no answer (HTTP 500/502/503/504, a reset, a
   * timeout): the platform may have created the task. False when it definitely did not.
   */
  readonly unknown: boolean;
}

/** What the writes achieved. */
export interface WriteOutcome {
  /** deviceId → top-level property ids (or profile keys) the platform took. */
  readonly applied: Map<string, Set<string>>;
  /** deviceId → taskId, for devices written by configuration tasks. */
  readonly taskIds: Record<string, string>;
  /**
   * What the platform did not take: per device, the property ids (or full STRUCT child ids) not
   * applied — all of them for a device that got no task.
   */
  readonly notApplied: NotApplied[];
  /** The failure that stopped the writes, if one did. */
  error?: unknown;
}

async function patch(write: PlannedWrite, outcome: WriteOutcome): Promise<void> {
  const client = await platformClient();
  const [deviceId] = write.deviceIds as [string];
  const result = await client.updateProperties(deviceId, write.values);
  const sent = Object.keys(write.values);
  record(outcome.applied, deviceId, new Set(sent.filter((key) => Object.hasOwn(result.properties, key))));
  const missing = missingPaths(write.values, result.properties);
  if (missing.length > 0)
    outcome.notApplied.push({
      deviceId,
      keys: missing,
      purpose: write.purpose,
      type: write.type,
      unknown: false,
    });
}

/**
 * What a PATCH response leaves out of what was sent: top-level property ids, and for a STRUCT the
 * full ids of children it leaves out (the response has the shape of the request).
 */
export function missingPaths(
  sent: Readonly<Record<string, unknown>>,
  taken: Readonly<Record<string, unknown>>,
): string[] {
  const missing: string[] = [];
  for (const [key, value] of Object.entries(sent)) {
    const got = taken[key];
    if (!Object.hasOwn(taken, key)) missing.push(key);
    else if (isPlainObject(value) && isPlainObject(got)) {
      for (const child of Object.keys(value)) if (!Object.hasOwn(got, child)) missing.push(child);
    }
  }
  return missing;
}

async function tasks(write: PlannedWrite, outcome: WriteOutcome): Promise<void> {
  const client = await platformClient();
  const version = write.version === undefined ? {} : { version: write.version };
  const keys = Object.keys(write.values);
  // Recorded chunk by chunk (500 devices a call): when a later chunk fails, the tasks of the
  // earlier ones are known and kept in state, and the next `up` creates tasks only for the rest.
  const progress = new Progress(
    write.deviceIds.length,
    (done, total) => `configuration tasks created for ${done} of ${total} devices`,
  );
  const onChunkCreated = (relations: readonly DeviceTaskRelation[]) => {
    progress.advance(relations.length);
    for (const { deviceId, taskId } of relations) {
      outcome.taskIds[deviceId] = taskId;
      record(outcome.applied, deviceId, new Set(keys));
    }
  };
  // The devices of a call whose answer was lost, as the SDK names them (the chunk it sent): only
  // they may have got a task. Devices of chunks never sent, and devices an answer left out, did not.
  const lost = new Set<string>();
  const onChunkFailed = ({ deviceIds, error }: TaskChunkFailure) => {
    if (unknownOutcome(error)) for (const deviceId of deviceIds) lost.add(deviceId);
  };
  try {
    if (write.type === "PROFILE") {
      const values = Object.entries(write.values).map(([key, value]) => ({ key, value }));
      await client.createConfigTasks(
        { type: "PROFILE", deviceIds: write.deviceIds, config: { ...version, values } },
        { onChunkCreated, onChunkFailed },
      );
    } else {
      await client.createConfigTasks(
        { type: "TSL", deviceIds: write.deviceIds, config: { ...version, properties: write.values } },
        { onChunkCreated, onChunkFailed },
      );
    }
  } catch (error) {
    markWithoutTask(write, outcome, lost);
    throw error;
  }
  // An answer without a task for some device: the platform created none for it.
  markWithoutTask(write, outcome);
}

/** Whether a failed call may have been performed (the SDK's classification of what the platform said). */
export function unknownOutcome(error: unknown): boolean {
  return error instanceof DevicePlatformError && error.outcomeUnknown;
}

/**
 * Devices of a write that got no task: nothing of the write is known to have reached them. Those in
 * `lost` were in a call whose answer was lost (the platform may have created their tasks); the
 * others were never sent, or were answered without a task.
 */
function markWithoutTask(
  write: PlannedWrite,
  outcome: WriteOutcome,
  lost: ReadonlySet<string> = new Set(),
): void {
  const keys = Object.keys(write.values);
  const without = write.deviceIds.filter((deviceId) => !Object.hasOwn(outcome.taskIds, deviceId));
  for (const deviceId of without)
    outcome.notApplied.push({
      deviceId,
      keys,
      purpose: write.purpose,
      type: write.type,
      unknown: lost.has(deviceId),
    });
}

function record(applied: Map<string, Set<string>>, deviceId: string, keys: Set<string>): void {
  const known = applied.get(deviceId) ?? new Set<string>();
  for (const key of keys) known.add(key);
  applied.set(deviceId, known);
}

/**
 * Runs the writes one after another. `singleDevice` is true for a configuration of one device:
 * its TSL writes go by PATCH; every other write goes by configuration tasks. The first failure
 * stops the writes: it is kept in the outcome with what was done before it, and the devices of
 * the writes not done are marked as not applied.
 */
export async function executeWrites(
  writes: readonly PlannedWrite[],
  singleDevice: boolean,
): Promise<WriteOutcome> {
  const outcome: WriteOutcome = { applied: new Map(), taskIds: {}, notApplied: [] };
  for (const [index, write] of writes.entries()) {
    const byPatch = singleDevice && write.type === "TSL" && write.deviceIds.length === 1;
    try {
      await (byPatch ? patch(write, outcome) : tasks(write, outcome));
    } catch (error) {
      outcome.error = error;
      if (byPatch) markWithoutTask(write, outcome);
      for (const skipped of writes.slice(index + 1)) markWithoutTask(skipped, outcome);
      break;
    }
  }
  return outcome;
}

/** Whether the writes reached anything at all: a task created, or a property applied. */
export function appliedAny(outcome: WriteOutcome): boolean {
  return [...outcome.applied.values()].some((keys) => keys.size > 0);
}

/** `a, b and c` for messages; long lists are cut after `limit` items. */
export function listForHumans(items: readonly string[], limit = 10): string {
  const shown = items.slice(0, limit);
  const rest = items.length - shown.length;
  const tail = rest > 0 ? [...shown, `${rest} more`] : shown;
  return tail.length <= 1 ? (tail[0] ?? "") : `${tail.slice(0, -1).join(", ")} and ${tail[tail.length - 1]}`;
}

/** The sentence that names what the platform did not apply. */
export function notAppliedMessage(operation: string, outcome: WriteOutcome): string {
  const parts = outcome.notApplied.map(({ deviceId, keys, purpose }) => {
    const what = purpose === "reset" ? "defaults of" : "";
    return `device ${deviceId}: ${what ? `${what} ` : ""}${listForHumans(keys)}`;
  });
  return (
    `${operation} failed: the platform did not apply every property that was sent; not applied: ` +
    `${listForHumans(parts, 5)}. State keeps only what was applied; run \`pulumi up\` again to retry the rest`
  );
}
