/**
 * The model and device type of a fleet's devices, which Add a Device does not report: one lookup
 * (see `lookup.ts`) for the devices just added, and for those an earlier `up` recorded without them
 * because a spent daily quota stopped it before this lookup.
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
  const index = await findDevices(client, { deviceIds: ids }, concurrency);
  for (const sn of missing) {
    const device = index.byId.get(ledger.deviceIdOf(sn) as string);
    if (device) ledger.setInfo(sn, infoOf(device));
  }
}
