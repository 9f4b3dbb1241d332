/**
 * A DeviceFleet driven as the engine drives it in one `up`: check, then create, or diff and update.
 */
import { deviceFleetImplementation as fleet } from "../../../../provider/device-fleet/provider";
import { resetOwnership } from "../../../../provider/guardrails/ownership";
import type { Inputs } from "../../../../provider/shared/input-checks";

/** What an `up` left in state: the checked inputs and the outputs. */
export interface Deployed {
  inputs: Inputs;
  outs: Inputs;
}

/** One declared device of a fleet. */
export type Entry = { sn: string; name: string; description?: string; project?: string; tags?: string[] };

/** Checks a fleet's program inputs, failing on any check failure. */
export async function checkFleet(
  name: string,
  devices: Entry[],
  previous?: Deployed,
  settings: Inputs = {},
): Promise<Inputs> {
  const { inputs, failures } = await fleet.check(previous?.inputs ?? {}, {
    fleetName: name,
    devices,
    ...settings,
  });
  if (failures && failures.length > 0) throw new Error(failures.map((f) => f.reason).join("\n"));
  return inputs;
}

/** Creates the fleet, or diffs and updates it from `previous`, with checked `inputs`. */
export async function applyFleet(name: string, inputs: Inputs, previous?: Deployed): Promise<Deployed> {
  if (!previous) return { inputs, outs: (await fleet.create(inputs)).outs ?? {} };
  const diff = await fleet.diff(name, previous.outs, inputs);
  if (!diff.changes) return { inputs, outs: previous.outs };
  return { inputs, outs: (await fleet.update(name, previous.outs, inputs)).outs ?? {} };
}

/** One `up` of one fleet, a deployment of its own. */
export async function upFleet(
  name: string,
  devices: Entry[],
  previous?: Deployed,
  settings: Inputs = {},
): Promise<Deployed> {
  resetOwnership();
  return applyFleet(name, await checkFleet(name, devices, previous, settings), previous);
}
