/**
 * Refresh of a fleet: the fleet's devices found by the paged search of the devices carrying the
 * stack's owner tag (⌈M/100⌉ requests for M devices, however many devices other stacks keep in the
 * application; the whole application when the devices are not known to carry it; one request per
 * device only when that is fewer), never one GET per device. A device the listing does not return
 * is read by id: it leaves the fleet's state only when the platform answers `device_not_found` for
 * it (or its id now carries another serial number), never because a page missed it. Drift — a
 * device renamed, retagged or deleted out of band — shows in the refreshed inputs, so the next `up`
 * repairs it; devices of the application that are not in the fleet are not its business.
 */
import { sameSerial } from "../shared/serial-numbers";
import { platformClient } from "../platform-access/platform-client";
import type { Inputs } from "../shared/input-checks";
import { SETTING_INPUTS, settingsOf } from "./inputs";
import { findDevices } from "./lookup";
import { entryFromPlatform, FleetLedger, infoOf } from "./state";

/** The refreshed state and inputs of a fleet. */
export async function refreshFleet(
  id: string,
  fleet: string,
  props: Inputs,
): Promise<{ id: string; props: Inputs; inputs: Inputs }> {
  const ledger = FleetLedger.fromOutputs(props);
  const ids = ledger.serials().map((sn) => ledger.deviceIdOf(sn) as string);
  const wanted = { deviceIds: ids, carrying: ledger.carrying() };
  const index = await findDevices(await platformClient(), wanted, settingsOf(props).concurrency);
  for (const sn of ledger.serials()) {
    const device = index.byId.get(ledger.deviceIdOf(sn) as string);
    if (!device || !sameSerial(device.sn, sn)) {
      // The platform said this id is not found (or names another device): the next `up` adds it again.
      ledger.forget(sn);
      continue;
    }
    ledger.setApplied(sn, entryFromPlatform(device, sn, ledger.appliedOf(sn)));
    ledger.setInfo(sn, infoOf(device));
  }
  const settings = Object.fromEntries(SETTING_INPUTS.map((key) => [key, props[key]]));
  const inputs = { fleetName: fleet, entries: ledger.appliedEntriesRecord(), ...settings };
  return {
    id,
    props: ledger.toOutputs(fleet, props),
    inputs: Object.fromEntries(Object.entries(inputs).filter(([, v]) => v !== undefined)),
  };
}
