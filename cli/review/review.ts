/**
 * A preview's steps, diagnostics and policy findings as the review of one stack: every device
 * that changes (from fleets and Device resources), configuration changes, errors and warnings,
 * policy violations.
 */
import { fleetChanges } from "./fleet-changes";
import type { PreviewReport } from "./preview";
import { configChange, deviceResourceChanges, kindOf, unchangedStep } from "./resource-changes";
import type { ConfigChange, DeviceChange, StackReview } from "./review-model";

/** `pulumi preview --expect-no-changes`'s exit code when there are changes (not a failure). */
export const EXIT_CHANGES = 7;

/** Diagnostics a reviewer reads: errors and warnings, never debug or info lines. */
const SHOWN_SEVERITIES = new Set(["error", "warning"]);

/** The review of `stack` from its preview (and the preview's exit code, when known). */
export function reviewOf(stack: string, report: PreviewReport, exitCode?: number): StackReview {
  const devices: DeviceChange[] = [];
  const configs: ConfigChange[] = [];
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
    } else if (kind === "Device") {
      const changes = deviceResourceChanges(step);
      devices.push(...changes.devices);
      if (!unchangedStep(step)) unchanged += changes.unchanged;
    } else if (kind === "DeviceConfig" || kind === "RpsProfile") {
      const change = configChange(kind, step);
      if (change) configs.push(change);
    }
  }
  const diagnostics = report.diagnostics.filter((d) => SHOWN_SEVERITIES.has(d.severity));
  const failed =
    diagnostics.some((d) => d.severity === "error") ||
    (exitCode !== undefined && exitCode !== 0 && exitCode !== EXIT_CHANGES);
  return { stack, devices, unchanged, configs, notes, diagnostics, policies: report.policies, failed };
}
