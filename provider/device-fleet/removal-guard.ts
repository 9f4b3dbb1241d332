/**
 * What stops a fleet from deleting devices its program did not mean to drop: an emptied, cut or
 * mis-decoded inventory reads as "these devices are gone", and a tool must not delete what an
 * empty input implies without being told (Terraform's `prevent_destroy`, Kubernetes' `--prune`
 * allow-lists). Three rules, all before any write:
 *
 * - a fleet's own `maxRemovals` (checkMaxRemovals in inputs.ts; counts every removal, as always);
 * - without it, the default: an update that would delete more than half of the devices the fleet
 *   manages, and more than one, stops at preview — unless the stack sets a removal budget;
 * - the stack's removal budget `devplatform:maxRemovals` (guardrails/removal-budget.ts), across every
 *   fleet and Device of the deployment, on top of each fleet's own.
 *
 * The default counts deletes: a fleet with `onRemove: "release"` deletes nothing. The budget counts
 * deletes, and a release's devices too where the provider setting `countReleases` says so
 * (settings.ts: off by default).
 */
import { declarationsSettled, otherOwner, programRan } from "../guardrails/ownership";
import { providerSettings } from "../platform-access/platform-client";
import { chargeDelete, chargeRemovals } from "../guardrails/removal-budget";
import { ResourceOperationError } from "../shared/errors";
import type { CheckFailure } from "../shared/input-checks";
import { removedSerials, type FleetEntries, type FleetSettings } from "./inputs";
import { fleetOwner } from "./fleet-run";
import type { FleetLedger } from "./state";

/** The most devices a fleet of `managed` devices deletes at once by default: half, and at least 1. */
export function defaultRemovalLimit(managed: number): number {
  return Math.max(1, Math.floor(managed / 2));
}

/** The first serial numbers in serial order: a fleet's state lists its devices as their adds ended. */
function listed(serials: readonly string[]): string {
  const shown = [...serials].sort().slice(0, 5).join(", ");
  return serials.length > 5 ? `${shown} and ${serials.length - 5} more` : shown;
}

/**
 * The default's message when `removing` devices of the `managed` would go, or undefined within it.
 * Applies to a fleet without `maxRemovals` of its own that deletes, when the stack sets no budget.
 */
export function defaultRuleProblem(
  fleet: string,
  removing: readonly string[],
  managed: number,
  settings: FleetSettings,
  stackBudget: number | undefined,
): string | undefined {
  if (settings.maxRemovals !== undefined || stackBudget !== undefined || settings.onRemove !== "delete") {
    return undefined;
  }
  if (removing.length <= defaultRemovalLimit(managed)) return undefined;
  return (
    `DeviceFleet ${fleet} would delete ${removing.length} of the ${managed} devices it manages (${listed(removing)}), ` +
    "more than half of them; nothing was written. A fleet without maxRemovals stops before deleting more than half " +
    "its devices at once, which is what an emptied, cut off or mis-decoded inventory looks like. Check the file the " +
    `fleet is read from; if the removals are meant, set the fleet's maxRemovals (${removing.length} or more) for ` +
    `this change, or the stack's removal budget (\`pulumi config set devplatform:maxRemovals ${removing.length}\`)`
  );
}

/**
 * Of `removed`, those the fleet would delete: none for a fleet that releases, and not those another
 * resource of the deployment declares or claims (a device moving to another fleet or a Device
 * stays on the platform). `deviceIdOf` gives the ids the fleet's state knows (none at check).
 */
export function deletedSerials(
  fleet: string,
  removed: readonly string[],
  settings: FleetSettings,
  deviceIdOf: (sn: string) => string | undefined = () => undefined,
): string[] {
  if (settings.onRemove !== "delete") return [];
  return leaving(fleet, removed, deviceIdOf);
}

/** Of `removed`, those no other resource of the deployment declares or claims. */
function leaving(
  fleet: string,
  removed: readonly string[],
  deviceIdOf: (sn: string) => string | undefined,
): string[] {
  const owner = fleetOwner(fleet);
  return removed.filter((sn) => otherOwner({ deviceId: deviceIdOf(sn) ?? "", sn }, owner) === undefined);
}

/**
 * Of `removed`, those charged to the stack's removal budget: those the fleet deletes, or, for a
 * fleet that releases, those it lets go when `countReleases` is set (none otherwise).
 */
export function chargedSerials(
  fleet: string,
  removed: readonly string[],
  settings: FleetSettings,
  countReleases: boolean,
  deviceIdOf: (sn: string) => string | undefined = () => undefined,
): string[] {
  if (settings.onRemove === "delete") return deletedSerials(fleet, removed, settings, deviceIdOf);
  return countReleases ? leaving(fleet, removed, deviceIdOf) : [];
}

/**
 * The word of the default rule (on what the fleet deletes) and of the stack's budget (on what it
 * deletes, or releases where `countReleases` is set) on `removals` of a fleet that manages
 * `managed` devices: the message refusing them, or undefined. The budget also reads the
 * deployment's other processes' charges. `deviceIdOf` gives the ids the fleet's state knows.
 */
export async function removalProblem(
  fleet: string,
  removals: readonly string[],
  managed: number,
  settings: FleetSettings,
  deviceIdOf: (sn: string) => string | undefined = () => undefined,
): Promise<string | undefined> {
  if (removals.length === 0) return undefined;
  const { maxRemovals: stackBudget, countReleases } = await providerSettings();
  const charged = chargedSerials(fleet, removals, settings, countReleases, deviceIdOf);
  if (charged.length === 0) return undefined;
  const deleting = deletedSerials(fleet, removals, settings, deviceIdOf);
  return (
    defaultRuleProblem(fleet, deleting, managed, settings, stackBudget) ??
    (stackBudget === undefined
      ? undefined
      : await chargeRemovals(`DeviceFleet ${fleet}`, charged, stackBudget))
  );
}

/**
 * The `up`'s guard, before its first write: refuses (throws) `removals` over the fleet's
 * `maxRemovals`, the default rule or the stack's budget. The check held these at preview; they are
 * held again here, since an `up` may skip its preview and the deployment's other processes may have
 * charged the budget since.
 */
export async function refuseRemovals(
  operation: string,
  fleet: string,
  removals: readonly string[],
  ledger: FleetLedger,
  settings: FleetSettings,
): Promise<void> {
  if (settings.maxRemovals !== undefined && removals.length > settings.maxRemovals) {
    throw new ResourceOperationError(
      `${operation} failed: it would remove ${removals.length} devices, more than maxRemovals ` +
        `${settings.maxRemovals}; nothing was written`,
    );
  }
  if (settings.onRemove === "delete" && removals.length > 0) await declarationsSettled();
  const overRule = await removalProblem(fleet, removals, ledger.size, settings, (sn) =>
    ledger.deviceIdOf(sn),
  );
  if (overRule !== undefined) throw new ResourceOperationError(`${operation} failed: ${overRule}`);
}

/**
 * The check-time failure of a fleet's removals (`before` undefined for a new fleet): see
 * {@link removalProblem}. A fleet that removes nothing charges nothing (a charge of an earlier
 * check in the same deployment stays: conservative, and the engine checks a resource once per
 * deployment).
 */
export async function fleetRemovalFailure(
  fleet: string,
  before: FleetEntries | undefined,
  after: FleetEntries,
  settings: FleetSettings,
): Promise<CheckFailure | undefined> {
  if (before === undefined) return undefined;
  // At check, another resource's declaration counts when it came first; the update counts them all.
  const problem = await removalProblem(
    fleet,
    removedSerials(before, after),
    Object.keys(before).length,
    settings,
  );
  return problem === undefined ? undefined : { property: "", reason: problem };
}

/**
 * The stack budget's word on a fleet the program no longer declares (seen only by its delete,
 * during the `up`): the message refusing it, or undefined.
 */
export async function fleetDeleteOverBudget(
  fleet: string,
  serials: readonly string[],
  stackBudget: number | undefined,
): Promise<string | undefined> {
  return stackBudget === undefined ? undefined : chargeDelete(`DeviceFleet ${fleet}`, serials, stackBudget);
}

/**
 * The stack budget's word on a releasing fleet the program no longer declares, where
 * `countReleases` is set (seen only by its delete, during the `up`): the message refusing it, or
 * undefined. `leaving` gives the devices no other resource takes, once the declarations settled.
 */
export async function fleetReleaseOverBudget(
  fleet: string,
  leaving: () => readonly string[],
): Promise<string | undefined> {
  const { maxRemovals, countReleases } = await providerSettings();
  if (!countReleases || maxRemovals === undefined) return undefined;
  await declarationsSettled();
  return programRan() ? chargeDelete(`DeviceFleet ${fleet}`, leaving(), maxRemovals) : undefined;
}
