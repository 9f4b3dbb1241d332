/**
 * The model and device type of a fleet's devices, which Add a Device does not report: one lookup
 * (see `lookup.ts`, by the stack's owner tag) for the devices just added, and for those an earlier
 * `up` recorded without them because a spent daily quota stopped it before this lookup.
 */
import type { DevicePlatformClient } from "../../sdk";
import { findDevices } from "./lookup";
import { devicesWithoutInfo } from "./request-count";
import { infoOf, type FleetLedger } from "./state";

/** Records the model and device type of `added` and of every managed device still without them. */
export async function completeInfo(
  client: DevicePlatformClient,
  ledger: FleetLedger,
  added: readonly string[],
  concurrency: number,
): Promise<void> {
  const serials = [...new Set([...added, ...devicesWithoutInfo(ledger)])];
  const missing = serials.filter((sn) => ledger.deviceIdOf(sn) && ledger.infoOf(sn)?.model === undefined);
  if (missing.length === 0) return;
  const ids = missing.map((sn) => ledger.deviceIdOf(sn) as string);
  // By the stack's owner tag, which the devices just added carry: ⌈M/100⌉ searches for a fleet of M
  // however many devices other stacks keep in the application (20 stacks × 5,000 listed the whole
  // application, 1,000 searches each, at the end of every up).
  const index = await findDevices(client, { deviceIds: ids, carrying: ledger.carrying() }, concurrency);
  for (const sn of missing) {
    const device = index.byId.get(ledger.deviceIdOf(sn) as string);
    if (device) ledger.setInfo(sn, infoOf(device));
  }
}
