/**
 * A preview's steps, diagnostics and policy findings as the review of one stack: every device
 * that changes (from fleets and Device resources), configuration changes, errors and warnings,
 * policy violations.
 */
import { fleetChanges } from "./fleet-changes";
import { pairMoves } from "./moves";
import type { PreviewReport } from "./preview";
import {
  changedInputs,
  configChange,
  deviceResourceChanges,
  kindOf,
  resourceName,
  unchangedStep,
} from "./resource-changes";
import type { ConfigChange, DeviceChange, StackReview } from "./review-model";
import { rpsBatchChanges, type RecordChange } from "./rps-batch-changes";

/** `pulumi preview --expect-no-changes`'s exit code when there are changes (not a failure). */
export const EXIT_CHANGES = 7;

/** Diagnostics a reviewer reads: errors and warnings, never debug or info lines. */
const SHOWN_SEVERITIES = new Set(["error", "warning"]);

/** The review of `stack` from its preview (and the preview's exit code, when known). */
export function reviewOf(stack: string, report: PreviewReport, exitCode?: number): StackReview {
  const devices: DeviceChange[] = [];
  const configs: ConfigChange[] = [];
  const records: RecordChange[] = [];
  const notes: string[] = [];
  let unchanged = 0;
  // The streaming form may tell a step more than once (a replacement's parts): one per URN and op.
  const seen = new Set<string>();
  for (const step of report.steps) {
    const key = `${step.urn}\u0000${step.op}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const kind = kindOf(step.type);
    if (kind === "DeviceFleet") {
      if (unchangedStep(step)) continue; // its devices are counted only when the fleet changes
      const changes = fleetChanges(step);
      devices.push(...changes.devices);
      unchanged += changes.unchanged;
      notes.push(...changes.notes);
      // Its settings (maxRemovals, onRemove, …) are reviewed as a configuration's properties are.
      const settings = changedInputs(step.old?.inputs, step.new?.inputs, ["entries", "devices"]);
      if (step.op === "update" && settings.length > 0)
        configs.push({ resource: `DeviceFleet ${resourceName(step.urn)}`, op: step.op, fields: settings });
    } else if (kind === "Device") {
      const changes = deviceResourceChanges(step);
      devices.push(...changes.devices);
      if (!unchangedStep(step)) unchanged += changes.unchanged;
    } else if (kind === "RpsFleet") {
      if (unchangedStep(step)) continue;
      const changes = rpsBatchChanges(step);
      records.push(...changes.records);
      notes.push(...changes.notes);
      const settings = changedInputs(step.old?.inputs, step.new?.inputs, ["entries", "records"]);
      if (step.op === "update" && settings.length > 0)
        configs.push({ resource: `RpsFleet ${resourceName(step.urn)}`, op: step.op, fields: settings });
    } else if (kind === "DeviceConfig" || kind === "RpsProfile") {
      const change = configChange(kind, step);
      if (change) configs.push(change);
    }
  }
  const diagnostics = report.diagnostics.filter((d) => SHOWN_SEVERITIES.has(d.severity));
  const failed =
    diagnostics.some((d) => d.severity === "error") ||
    (exitCode !== undefined && exitCode !== 0 && exitCode !== EXIT_CHANGES);
  return {
    stack,
    // In one order whatever the engine's order of steps: a comment changes only when the preview does.
    devices: pairMoves(devices).sort(
      (a, b) => compare(a.resource, b.resource) || compare(a.sn.toUpperCase(), b.sn.toUpperCase()),
    ),
    unchanged,
    configs: configs.sort((a, b) => compare(a.resource, b.resource)),
    records: records.sort(
      (a, b) =>
        RECORD_ORDER[a.action] - RECORD_ORDER[b.action] ||
        compare(a.resource, b.resource) ||
        compare(a.sn.toUpperCase(), b.sn.toUpperCase()),
    ),
    notes: notes.sort(compare),
    diagnostics,
    policies: report.policies,
    failed,
  };
}

/** Removals first, as an `up` does them. */
const RECORD_ORDER: Readonly<Record<RecordChange["action"], number>> = { remove: 0, change: 1, add: 2 };

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
