/**
 * One operation on a fleet as it runs (`FleetRun`), how it starts, and what every step of it
 * shares: the steps taken in order until a spent quota stops them, work on many devices
 * `concurrency` at a time, its progress line, the fleet's one-owner identity, and how a device's
 * failure is collected (a spent quota's refusal stops the run instead).
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
  /** How far the run is, on the fleet's row. */
  readonly progress: Progress;
  /** Who the fleet is in the deployment's one-owner record (see {@link fleetOwner}). */
  readonly owner: Owner;
  /** This stack's owner tag, written on every device the run writes (see owner-marks.ts). */
  readonly marker?: string;
}

/** What a run starts from: the operation, the fleet's record, and who writes. */
export interface RunStart {
  readonly client: DevicePlatformClient;
  readonly fleet: string;
  readonly settings: FleetSettings;
  readonly ledger: FleetLedger;
  readonly operation: string;
  readonly marker?: string;
  /** The fleet's whole delete (see {@link fleetOwner}). */
  readonly leaving?: boolean;
}

/**
 * Starts a run of `total` device steps: its progress line (`verb`: `reconciled`, `removed`), its
 * owner, and, for an `up`, the ledger set to write this stack's owner tag.
 */
export function startRun(start: RunStart, total: number, verb?: string): FleetRun {
  const { leaving, ...run } = start;
  // A whole delete writes no owner tag: its ledger keeps the markers it recorded, which its lookup
  // searches by and its deletes check against.
  if (!leaving) start.ledger.useMarker(start.marker);
  return {
    ...run,
    failures: [],
    progress: fleetProgress(start.fleet, total, verb),
    owner: fleetOwner(start.fleet, leaving),
  };
}

/**
 * Takes the steps in order, each to its end (a step stops starting work on its devices once the
 * quota is spent); none after the quota is spent. A lookup the quota refused ends the run like a
 * refused write: what was done is recorded.
 */
export async function inOrder(run: FleetRun, steps: readonly (() => Promise<void>)[]): Promise<void> {
  for (const step of steps) {
    if (run.quota) return;
    try {
      await step();
    } catch (error) {
      const refusal = quotaRefusalOf(error);
      if (!refusal) throw error;
      run.quota ??= refusal;
    }
  }
}

/**
 * A step's work on its devices, `concurrency` at a time, each counted in the run's progress whether
 * it succeeds or fails; no device starts after a spent quota's refusal. Returns the failures.
 */
export function eachDevice<T>(run: FleetRun, items: readonly T[], task: (item: T) => Promise<void>) {
  return settle(run, items, counted(run, task));
}

/** Work on many devices, `concurrency` at a time; no device starts after a spent quota's refusal. */
export function settle<T>(run: FleetRun, items: readonly T[], task: (item: T) => Promise<void>) {
  return forEachSettled(items, run.settings.concurrency, task, { stopOn: isQuotaRefusal });
}

/** A fleet's progress line: `DeviceFleet site-a: 1,200 of 10,000 devices reconciled`. */
export function fleetProgress(fleet: string, total: number, verb = "reconciled"): Progress {
  return new Progress(total, (done, all) => `DeviceFleet ${fleet}: ${done} of ${all} devices ${verb}`);
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

/** Collects one device's failure of `operation`, or the quota's refusal that stops the run. */
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

/** `task`, counted in the run's progress whether it succeeds or fails. */
function counted<T>(run: FleetRun, task: (item: T) => Promise<void>): (item: T) => Promise<void> {
  return async (item) => {
    try {
      await task(item);
    } finally {
      run.progress.advance();
    }
  };
}
