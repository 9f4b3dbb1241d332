/**
 * `resetOnDelete` never writes TSL defaults to a device another stack manages: before a reset, each
 * device is read (one GET each, only when there is something to reset) and those whose owner tag
 * names another stack (provider/shared/owner-marker.ts) are left as they are, with a warning. The
 * configuration's state records the owner tag of the stack that wrote it (`ownerMarker`): a device
 * carrying that tag is this stack's, whatever the stack is called now (a stack renamed, or given
 * another `ownerTag` prefix, before its next `up` retagged the devices).
 */
import { NotFoundError } from "../../sdk";
import { log } from "../output/log";
import { platformClient } from "../platform-access/platform-client";
import { stackMarker } from "../guardrails/stack-marker";
import { forEachLimited } from "../shared/fanout";
import { otherOwnerIn } from "../shared/owner-marker";

/** Reads of devices in flight at once for one resource's reset. */
const READ_CONCURRENCY = 16;

/**
 * The devices among `deviceIds` another stack's owner tag names (warning, naming each stack);
 * none outside a deployment (no marker).
 */
export async function devicesOfOtherStacks(
  subject: string,
  deviceIds: readonly string[],
  recorded?: string,
): Promise<Set<string>> {
  const marker = await stackMarker();
  const elsewhere = new Map<string, string>();
  if (marker === undefined || deviceIds.length === 0) return new Set();
  const client = await platformClient();
  await forEachLimited([...new Set(deviceIds)], READ_CONCURRENCY, async (deviceId) => {
    try {
      const other = otherOwnerIn((await client.getDevice(deviceId)).tag, marker, recorded);
      if (other !== undefined) elsewhere.set(deviceId, other);
    } catch (error) {
      // Gone: nothing to reset (the reset meets the same not-found and skips it).
      if (!(error instanceof NotFoundError)) throw error;
    }
  });
  const byStack = new Map<string, string[]>();
  for (const [deviceId, stack] of elsewhere) byStack.set(stack, [...(byStack.get(stack) ?? []), deviceId]);
  for (const [stack, ids] of byStack) {
    await log.warn(
      `${subject}: resetOnDelete leaves device(s) ${ids.join(", ")} as they are: stack "${stack}" manages them ` +
        "now (their owner tag says so)",
    );
  }
  return new Set(elsewhere.keys());
}

/** The owner tag a configuration's state recorded (none before configurations recorded it). */
export function recordedMarker(state: Record<string, unknown>): string | undefined {
  return typeof state.ownerMarker === "string" ? state.ownerMarker : undefined;
}

/**
 * The state with the owner tag of the stack writing it now (kept as it was outside a deployment),
 * for a later reset to know the devices of this stack under an earlier name.
 */
export async function withOwnerMarker<T extends Record<string, unknown>>(outs: T): Promise<T> {
  const marker = await stackMarker();
  return marker === undefined ? outs : { ...outs, ownerMarker: marker };
}
