/**
 * A DeviceFleet's step as devices: the provider's own plan (`planFleet`, the function both
 * front-ends' diff calls) from the fleet's recorded outputs (what is applied) to its checked
 * inputs, both of which the preview's JSON carries for either front-end. So the review lists the
 * devices the `up` will add, update and remove, with each update's fields before and after —
 * whether the front-end's detailed diff reached the engine or not.
 */
import { entriesOf, settingsOf, type FleetEntries } from "../../provider/device-fleet/inputs";
import { planFleet } from "../../provider/device-fleet/plan";
import { FleetLedger } from "../../provider/device-fleet/state";
import type { DeviceChange, ResourceChanges } from "./review-model";
import type { PreviewStep } from "./preview";
import { holdsUnknown, isRecord } from "./values";

/** The declared entries of a fleet's checked inputs: `entries` (dynamic) or `devices` (plugin). */
function declaredEntries(inputs: Record<string, unknown>): FleetEntries | "unknown" | undefined {
  const given = inputs.entries ?? inputs.devices;
  if (given === undefined) return undefined;
  if (holdsUnknown(given) || !isRecord(given)) return "unknown";
  return entriesOf({ entries: given });
}

/** The name a fleet's changes are listed under. */
function fleetLabel(step: PreviewStep): string {
  return `fleet ${step.urn.split("::").pop() ?? step.urn}`;
}

/** A device the fleet of `step` removes, with what is applied of it (a move's changes come from it). */
function removal(step: PreviewStep, ledger: FleetLedger, sn: string, release: boolean): DeviceChange {
  return {
    sn,
    action: "remove",
    resource: fleetLabel(step),
    fields: [],
    release,
    values: { ...ledger.appliedOf(sn) },
    ...(step.old?.provider ? { provider: step.old.provider } : {}),
  };
}

/** A fleet step's device changes (none for `same`), or a note when its devices are not known yet. */
export function fleetChanges(step: PreviewStep): ResourceChanges {
  const resource = fleetLabel(step);
  const ledger = FleetLedger.fromOutputs(step.old?.outputs ?? {});
  if (step.op === "delete" || step.op === "delete-replaced") {
    const release = settingsOf(step.old?.outputs ?? {}).onRemove === "release";
    const devices = ledger.serials().map((sn) => removal(step, ledger, sn, release));
    return { devices, unchanged: 0, notes: [] };
  }
  const declared = declaredEntries(step.new?.inputs ?? {});
  if (declared === "unknown") {
    return {
      devices: [],
      unchanged: 0,
      notes: [`${resource}: its devices are known only at apply (they depend on other resources)`],
    };
  }
  if (declared === undefined) return { devices: [], unchanged: ledger.size, notes: [] };
  const plan = planFleet(ledger, declared);
  const release = settingsOf(step.new?.inputs ?? {}).onRemove === "release";
  const devices: DeviceChange[] = [
    ...plan.removals.map((sn) => removal(step, ledger, sn, release)),
    ...plan.updates.map(({ sn, fields }): DeviceChange => {
      const before = (ledger.appliedOf(sn) ?? {}) as Record<string, unknown>;
      const after = (declared[sn] ?? {}) as Record<string, unknown>;
      return {
        sn,
        action: "update",
        resource,
        fields: fields.map((field) => ({ field, before: before[field], after: after[field] })),
      };
    }),
    ...plan.adds.map((sn): DeviceChange => ({
      sn,
      action: "add",
      resource,
      fields: [],
      values: { ...declared[sn] },
      ...(step.new?.provider ? { provider: step.new.provider } : {}),
    })),
  ];
  return { devices, unchanged: plan.unchanged, notes: [] };
}
