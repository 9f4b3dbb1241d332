/**
 * One operation on a fleet as it runs (`FleetRun`), and what every step of it shares: work on many
 * devices `concurrency` at a time, its progress line, the fleet's one-owner identity, and how a
 * device's failure is collected (a spent quota's refusal stops the run instead).
 */
import type { DevicePlatformClient, QuotaExhaustedError } from "../../sdk";
import { currentUrn } from "../deployment/request-urn";
import type { Owner } from "../guardrails/ownership";
import { Progress } from "../output/progress";
import { operationFailed } from "../shared/errors";
import { forEachSettled } from "../shared/fanout";
import { isQuotaRefusal, quotaRefusalOf } from "../shared/quota";
import type { FleetSettings } from "./inputs";
import type { FleetLedger } from "./state";

/** One device that could not be done, with the platform's words. */
export interface DeviceFailure {
  readonly sn: string;
  readonly message: string;
}

/** Everything one operation on a fleet works with. */
export interface FleetRun {
  readonly client: DevicePlatformClient;
  readonly fleet: string;
  readonly settings: FleetSettings;
  readonly ledger: FleetLedger;
  /** E.g. `update DeviceFleet site-a`. */
  readonly operation: string;
  readonly failures: DeviceFailure[];
  /** The platform's refusal for a spent daily quota, once seen: the run stops starting work. */
  quota?: QuotaExhaustedError;
  /** How far the run is, on the fleet's row (set by {@link applyPlan}, or by the fleet's delete). */
  progress?: Progress;
  /** The fleet's whole delete (see `fleetOwner`). */
  readonly leaving?: boolean;
  /** This stack's owner tag, written on every device the run writes (see owner-marks.ts). */
  readonly marker?: string;
}

/** Work on many devices, `concurrency` at a time; no device starts after a spent quota's refusal. */
export function settle<T>(run: FleetRun, items: readonly T[], task: (item: T) => Promise<void>) {
  return forEachSettled(items, run.settings.concurrency, task, { stopOn: isQuotaRefusal });
}

/** A fleet's progress line: `DeviceFleet site-a: 1,200 of 10,000 devices reconciled`. */
export function fleetProgress(fleet: string, total: number, verb = "reconciled"): Progress {
  return new Progress(total, (done, all) => `DeviceFleet ${fleet}: ${done} of ${all} devices ${verb}`);
}

/** `task`, counted in the run's progress whether it succeeds or fails. */
export function counted<T>(run: FleetRun, task: (item: T) => Promise<void>): (item: T) => Promise<void> {
  return async (item) => {
    try {
      await task(item);
    } finally {
      run.progress?.advance();
    }
  };
}

/**
 * The one-owner identity of a fleet: its URN when the current call carries it, and its name;
 * `leaving` for its whole delete.
 */
export function fleetOwner(fleet: string, leaving = false): Owner {
  const urn = currentUrn();
  return {
    kind: "DeviceFleet",
    fleet,
    ...(urn === undefined ? {} : { urn }),
    ...(leaving ? { leaving: true as const } : {}),
  };
}

export function fail(run: FleetRun, sn: string, operation: string, error: unknown): void {
  // Refused unperformed for the quota: not done, and not this device's failure.
  const refusal = quotaRefusalOf(error);
  if (refusal) {
    run.quota ??= refusal;
    return;
  }
  const message = operationFailed(`${operation} ${sn}`, error).message;
  run.failures.push({ sn, message });
}
