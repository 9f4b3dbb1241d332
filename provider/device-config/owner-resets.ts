/**
 * `resetOnDelete` never writes TSL defaults to a device another stack manages: before a reset, each
 * device is read (one GET each, only when there is something to reset) and those whose owner tag
 * names another stack (provider/shared/owner-marker.ts) are left as they are, with a warning.
 */
import { NotFoundError } from "../../sdk";
import { log } from "../runtime/log";
import { platformClient } from "../runtime/platform-client";
import { stackMarker } from "../runtime/stack-marker";
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
): Promise<Set<string>> {
  const marker = await stackMarker();
  const elsewhere = new Map<string, string>();
  if (marker === undefined || deviceIds.length === 0) return new Set();
  const client = await platformClient();
  await forEachLimited([...new Set(deviceIds)], READ_CONCURRENCY, async (deviceId) => {
    try {
      const other = otherOwnerIn((await client.getDevice(deviceId)).tag, marker);
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
