/**
 * A DeviceFleet's diff, for both front-ends from one comparison (`compareFleet`: the plan by serial
 * number, and the settings that changed). It answers a path per device and field —
 * `devices["240000A10003"].name` (UPDATE), an added device `devices["…"]` (ADD), a removed one
 * (DELETE) — so that `pulumi preview --diff` of a fleet of thousands shows exactly the devices that
 * change: the plugin hands it to the engine as it is, the dynamic front-end as `entries[…]` through
 * its host's response (provider/dynamic/host-detailed-diff.ts). The plan message (one line per
 * fleet) is told by both.
 */
import type { Inputs } from "../shared/input-checks";
import type { KindDiff, PropertyChange } from "../core/diff";
import { changeKind, inputChange } from "../core/diff";
import { log } from "../output/log";
import { isPlainObject } from "../../sdk/plain-object";
import { entriesOf, SETTING_INPUTS, settingsOf, type FleetEntries } from "./inputs";
import { describePlan } from "./message";
import { planChanges, planFleet, type FleetPlan } from "./plan";
import { FleetLedger } from "./state";
import { figureNote } from "./request-count";
import { ownerMarkerNote } from "../device/owner-check";

/** How a fleet changes: its plan (undefined while the devices are unknown) and its changed settings. */
export interface FleetComparison {
  readonly plan: FleetPlan | undefined;
  readonly settings: string[];
  readonly ledger: FleetLedger;
  readonly entries: FleetEntries | undefined;
}

/**
 * The declared entries of checked inputs: `entries` as the shared check answers them, or `devices`
 * keyed by serial number where a front-end records the checked entries under the program's name.
 */
export function declaredEntries(inputs: Inputs): FleetEntries | undefined {
  return entriesOf(inputs) ?? (isPlainObject(inputs.devices) ? (inputs.devices as FleetEntries) : undefined);
}

/**
 * Compares a fleet's recorded state (`olds`: what is applied) with its checked inputs (`news`);
 * `marker` is this stack's owner tag (see planFleet).
 */
export function compareFleet(olds: Inputs, news: Inputs, marker?: string): FleetComparison {
  const entries = declaredEntries(news);
  const ledger = FleetLedger.fromOutputs(olds);
  // By value: `takeOver` is a list.
  const settings = SETTING_INPUTS.filter((key) => JSON.stringify(olds[key]) !== JSON.stringify(news[key]));
  return { plan: entries ? planFleet(ledger, entries, marker) : undefined, settings, ledger, entries };
}

/** Tells the plan of a fleet that changes (one message, at most 20 serial numbers a category). */
export async function announcePlan(fleet: string, comparison: FleetComparison, news: Inputs): Promise<void> {
  const { plan, ledger, entries } = comparison;
  if (plan && entries && planChanges(plan)) {
    // The application is counted as the fleet's own devices: no request at preview.
    const figure = figureNote(plan, entries, ledger, news, { applicationSize: ledger.size });
    await log.info(describePlan(fleet, plan, ledger, entries, settingsOf(news).onRemove) + figure);
  }
}

/** Tells how many of the fleet's devices gain this stack's owner tag (those managed before it). */
async function announceMarks(fleet: string, comparison: FleetComparison, marker?: string): Promise<void> {
  const reads = comparison.plan?.ownerReads.length ?? 0;
  if (marker !== undefined && reads > 0)
    await log.info(ownerMarkerNote(`DeviceFleet ${fleet}`, reads, marker));
}

/** The path of one device of the fleet, by serial number: `devices["240000A10003"]`. */
export function devicePath(sn: string): string {
  return `devices[${JSON.stringify(sn)}]`;
}

function detailedDiffOf(comparison: FleetComparison, olds: Inputs, news: Inputs) {
  const { plan, ledger, entries, settings } = comparison;
  const detailed: Record<string, { kind: PropertyChange; inputDiff: boolean }> = {};
  if (!plan || !entries) detailed.devices = inputChange("UPDATE");
  else {
    for (const sn of plan.adds) detailed[devicePath(sn)] = inputChange("ADD");
    for (const sn of plan.removals) detailed[devicePath(sn)] = inputChange("DELETE");
    for (const { sn, fields } of plan.updates) {
      const before = (ledger.appliedOf(sn) ?? {}) as Record<string, unknown>;
      const after = (entries[sn] ?? {}) as Record<string, unknown>;
      for (const field of fields) {
        detailed[`${devicePath(sn)}.${field}`] = inputChange(changeKind(before[field], after[field]));
      }
    }
  }
  for (const key of settings) detailed[key] = inputChange(changeKind(olds[key], news[key]));
  // One entry for the whole fleet, not one per device: the message counts them.
  if (plan && plan.marks.length > 0) detailed.ownerMarker = { kind: "UPDATE", inputDiff: false };
  return detailed;
}

/** The DeviceFleet's one diff (never a replacement: its id is its name); `marker`: see planFleet. */
export async function deviceFleetDiff(
  fleet: string,
  olds: Inputs,
  news: Inputs,
  marker?: string,
): Promise<KindDiff> {
  const comparison = compareFleet(olds, news, marker);
  await announcePlan(fleet, comparison, news);
  await announceMarks(fleet, comparison, marker);
  const { plan, settings } = comparison;
  const devicesChange = !plan || planChanges(plan);
  // Updates in place keep every deviceId and what the platform reports; adds and removals change both maps.
  const keepsDevices = plan !== undefined && plan.adds.length + plan.removals.length === 0;
  return {
    changes: devicesChange || settings.length > 0,
    replaces: [],
    stables: keepsDevices ? ["deviceIds", "devices"] : [],
    deleteBeforeReplace: false,
    detailedDiff: detailedDiffOf(comparison, olds, news),
  };
}
