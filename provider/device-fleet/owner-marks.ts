/**
 * A fleet's owner tags (provider/shared/owner-marker.ts): before a fleet writes to devices it
 * records without this stack's tag (devices managed before owner tags, or a stack renamed), it
 * reads them — one lookup for all of them, `lookup.ts` — and refuses, writing nothing to it, each
 * device another stack's tag names (any tag but those the fleet's state recorded as its own), unless the fleet's `takeOver` lists it; a device that already
 * carries the tag costs no write. The others gain it: those the plan updates by their PUT, the
 * unchanged ones by a PUT of their declared state.
 */
import { OwnedElsewhereError } from "../device/adoption";
import { updateBody } from "../device/desired";
import type { ItemFailure } from "../shared/fanout";
import { carriesOnly, namesakeNote, otherOwnerIn } from "../shared/owner-marker";
import { eachDevice, type FleetRun } from "./fleet-run";
import { mayTakeOver, type FleetEntries, type FleetEntry } from "./inputs";
import { findDevices } from "./lookup";
import type { FleetPlan, PlannedUpdate } from "./plan";

/** The plan's writes to devices the owner check let through, and the devices it refused. */
export interface OwnerCheck {
  readonly updates: readonly PlannedUpdate[];
  readonly marks: readonly string[];
  readonly refused: readonly ItemFailure<string>[];
}

/** `list 240000A10001 in the fleet's takeOver`: how a fleet takes a device over. */
export function takeOverHint(sn: string): string {
  return `list ${sn} in the fleet's takeOver`;
}

/** Reads the devices of `plan.ownerReads` and sorts the plan's updates and marks by who owns them. */
export async function checkOwners(run: FleetRun, plan: FleetPlan): Promise<OwnerCheck> {
  const { marker, ledger } = run;
  if (marker === undefined || plan.ownerReads.length === 0) {
    return { updates: plan.updates, marks: plan.marks, refused: [] };
  }
  const ids = plan.ownerReads.map((sn) => ledger.deviceIdOf(sn) as string);
  const index = await findDevices(run.client, { deviceIds: ids }, run.settings.concurrency);
  const refused: ItemFailure<string>[] = [];
  for (const sn of plan.ownerReads) {
    const deviceId = ledger.deviceIdOf(sn) as string;
    // Gone: the update meets the platform's not-found and says so, as without owner tags.
    const device = index.byId.get(deviceId);
    if (!device) continue;
    const other = otherOwnerIn(device.tag, marker, ledger.ownMarkers());
    if (other !== undefined && !mayTakeOver(run.settings, sn, device.tag)) {
      const error = new OwnedElsewhereError(
        `deviceId ${deviceId} is managed by stack "${other}" (its owner tag says so${namesakeNote(other, marker)}); ` +
          "nothing was written. Remove " +
          `it from one of the two stacks' programs, or ${takeOverHint(sn)} to move it to this stack`,
      );
      refused.push({ item: sn, error });
    } else if (carriesOnly(device.tag, marker)) {
      ledger.setMarked(sn);
    }
  }
  const no = new Set(refused.map(({ item }) => item.toUpperCase()));
  return {
    updates: plan.updates.filter(({ sn }) => !no.has(sn.toUpperCase())),
    marks: plan.marks.filter((sn) => !no.has(sn.toUpperCase()) && ledger.needsMarker(sn, marker)),
    refused,
  };
}

/** Gives the owner tag to unchanged devices: one PUT of each one's declared state. Returns the failures. */
export async function markDevices(
  run: FleetRun,
  marks: readonly string[],
  declared: FleetEntries,
): Promise<ItemFailure<string>[]> {
  const { marker } = run;
  if (marker === undefined || marks.length === 0) return [];
  return eachDevice(run, marks, async (sn) => {
    const entry = declared[sn] as FleetEntry;
    await run.client.updateDevice(updateBody(run.ledger.deviceIdOf(sn) as string, { ...entry, sn }, marker));
    run.ledger.setMarked(sn);
  });
}
