/**
 * The DeviceFleet implementation behind the serialized provider: many devices in one engine
 * resource, planned and reconciled by serial number. An `up` reads in order in {@link runPlan}:
 * plan.ts, removal-guard.ts, then the steps remove-devices.ts, add-devices.ts, update-devices.ts
 * (sharing fleet-run.ts), and run-report.ts; a delete is delete-fleet.ts (see README.md).
 */
import type { KindDefinition } from "../core/kind";
import { declareSerials } from "../guardrails/ownership";
import { serialsDeclaredTwice } from "../guardrails/duplicate-serials";
import { stackMarker } from "../guardrails/stack-marker";
import { platformClient } from "../platform-access/platform-client";
import { describeFailure } from "../shared/errors";
import type { Inputs } from "../shared/input-checks";
import { addDevices } from "./add-devices";
import { deleteFleet } from "./delete-fleet";
import { deviceFleetDiff } from "./diff";
import { fleetOwner, inOrder, startRun } from "./fleet-run";
import { deviceFleetInputsOf, importDeviceFleet } from "./import";
import { checkFleetInputs, entriesOf, settingsOf } from "./inputs";
import type { PlatformIndex } from "./lookup";
import { announceNewFleet, takeRecentLookup } from "./new-fleet-preview";
import { planFleet, planSize } from "./plan";
import { refreshFleet } from "./read";
import { fleetRecordedInputs } from "./recorded-inputs";
import { fleetRemovalFailure, refuseRemovals } from "./removal-guard";
import { removeDevices } from "./remove-devices";
import { upOutcome } from "./run-report";
import { deviceFleetResourceSpec, deviceFleetTypes } from "./schema";
import { FleetLedger } from "./state";
import { updateDevices } from "./update-devices";

function fleetNameOf(inputs: Inputs, id?: string): string {
  return typeof inputs.fleetName === "string" && inputs.fleetName !== "" ? inputs.fleetName : (id ?? "");
}

/**
 * A fleet's `up` (its create or update), as the steps it takes in order: plan what the program
 * declares against what the state records; refuse removals over a limit, before any write; remove,
 * add (or adopt), update — each step looks its devices up, checks who owns them, writes, and
 * records each device in the ledger as it ends; last, the outputs, or the error that says what was
 * left undone. `known` is the lookup of a new fleet's preview, reused by its adds.
 */
async function runPlan(
  operation: string,
  fleet: string,
  ledger: FleetLedger,
  inputs: Inputs,
  known?: PlatformIndex,
): Promise<Inputs> {
  const entries = entriesOf(inputs) ?? {};
  const settings = settingsOf(inputs);
  const marker = await stackMarker();
  const plan = planFleet(ledger, entries, marker);
  await refuseRemovals(operation, fleet, plan.removals, ledger, settings);
  const client = await platformClient();
  const run = startRun({ client, fleet, settings, ledger, operation, marker }, planSize(plan));
  await inOrder(run, [
    () => removeDevices(run, plan.removals, settings.onRemove === "release"),
    () => addDevices(run, plan.adds, entries, known),
    () => updateDevices(run, plan, entries),
  ]);
  return upOutcome(run, plan, entries, inputs);
}

/** The DeviceFleet kind: what both front-ends call. */
export const deviceFleetImplementation: KindDefinition = {
  spec: deviceFleetResourceSpec,
  types: deviceFleetTypes,
  importRead: (id, name) => importDeviceFleet(id, name),
  inputsOf: deviceFleetInputsOf,
  recordedInputs: fleetRecordedInputs,

  async check(olds, news) {
    const { inputs, failures } = checkFleetInputs(olds, news);
    const entries = entriesOf(inputs);
    if (failures.length > 0 || !entries) return { inputs, failures };
    const fleet = fleetNameOf(inputs);
    declareSerials(
      fleetOwner(fleet),
      Object.entries(entries).map(([sn, entry]) => ({ sn, project: entry.project })),
    );
    // On no property: the engine prints a failing property's whole value, here every entry.
    const twice = await serialsDeclaredTwice(fleetOwner(fleet), Object.keys(entries), "");
    if (twice.length > 0) return { inputs, failures: twice };
    const removal = await fleetRemovalFailure(fleet, entriesOf(olds), entries, settingsOf(inputs));
    if (removal !== undefined) return { inputs, failures: [removal] };
    // A fleet new to the stack is created without a diff: its plan is told here.
    if (Object.keys(olds).length === 0) await announceNewFleet(fleet, entries, inputs);
    return { inputs, failures };
  },

  async diff(id, olds, news) {
    return deviceFleetDiff(fleetNameOf(news, id), olds, news, await stackMarker());
  },

  async create(inputs) {
    const fleet = fleetNameOf(inputs);
    const outs = await describeFailure(`create DeviceFleet ${fleet}`, () =>
      runPlan(`create DeviceFleet ${fleet}`, fleet, new FleetLedger(), inputs, takeRecentLookup(fleet)),
    );
    return { id: fleet, outs };
  },

  async read(id, props) {
    const fleet = fleetNameOf(props, id);
    return describeFailure(`read DeviceFleet ${fleet}`, () => refreshFleet(id, fleet, props));
  },

  async update(id, olds, news) {
    const fleet = fleetNameOf(news, id);
    const operation = `update DeviceFleet ${fleet}`;
    const outs = await describeFailure(operation, () =>
      runPlan(operation, fleet, FleetLedger.fromOutputs(olds), news),
    );
    return { outs };
  },

  async delete(id, props) {
    const fleet = fleetNameOf(props, id);
    const operation = `delete DeviceFleet ${fleet}`;
    await describeFailure(operation, () => deleteFleet(operation, fleet, props));
  },
};
