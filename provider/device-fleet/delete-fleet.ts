/**
 * A fleet's delete (`pulumi destroy`, or an `up` whose program no longer declares it): with
 * `onRemove: "release"` its devices stay on the platform and only the stack's budget may refuse;
 * else the fleet's `maxRemovals` (when the program ran) and the stack's budget are held first, then
 * the remove step (remove-devices.ts) deletes every device no other resource now manages. A spent
 * quota keeps the fleet in the stack with what is left.
 */
import { declarationsSettled, otherOwner, programRan } from "../guardrails/ownership";
import { stackMarker } from "../guardrails/stack-marker";
import { log } from "../output/log";
import { platformClient, providerSettings } from "../platform-access/platform-client";
import { ResourceOperationError } from "../shared/errors";
import type { Inputs } from "../shared/input-checks";
import { quotaSpent } from "../shared/quota";
import { fleetOwner, inOrder, startRun } from "./fleet-run";
import { settingsOf } from "./inputs";
import { fleetDeleteOverBudget, fleetReleaseOverBudget } from "./removal-guard";
import { removeDevices } from "./remove-devices";
import { describeFailures } from "./run-report";
import { FleetLedger } from "./state";

/** Deletes (or releases) the devices of the fleet whose state is `props`; `operation` names it in errors. */
export async function deleteFleet(operation: string, fleet: string, props: Inputs): Promise<void> {
  const ledger = FleetLedger.fromOutputs(props);
  const settings = settingsOf(props);
  if (settings.onRemove === "release") {
    // Nothing to write; but a destroy against the wrong server must fail here as everywhere.
    await (await platformClient()).verifyAccess();
    const overBudget = await fleetReleaseOverBudget(fleet, () => devicesToDelete(fleet, ledger));
    if (overBudget !== undefined) throw new ResourceOperationError(`${operation} failed: ${overBudget}`);
    if (ledger.size > 0) {
      await log.warn(
        `DeviceFleet ${fleet}: released ${ledger.size} devices (onRemove: "release"); they stay on the platform`,
      );
    }
    return;
  }
  // maxRemovals guards the fleet's own removal from the program too (its group vanished from a
  // truncated inventory, say); `pulumi destroy`, which runs no program, is the user's wish.
  // Devices another resource of the deployment now manages (a rename, a move to the plugin)
  // stay on the platform, so they are not removals.
  const client = await platformClient();
  await declarationsSettled();
  const deleting = settings.maxRemovals === undefined ? 0 : devicesToDelete(fleet, ledger).length;
  if (programRan() && settings.maxRemovals !== undefined && deleting > settings.maxRemovals) {
    throw new ResourceOperationError(
      `${operation} failed: the program no longer declares the fleet, and deleting it would delete its ` +
        `${deleting} devices, more than maxRemovals ${settings.maxRemovals}; nothing was deleted. If the ` +
        'fleet is meant to go, raise or remove its maxRemovals (or set onRemove: "release" to leave the ' +
        "devices on the platform) and run `pulumi up` before removing it, or run `pulumi destroy`",
    );
  }
  const overBudget = programRan()
    ? await fleetDeleteOverBudget(
        fleet,
        devicesToDelete(fleet, ledger),
        (await providerSettings()).maxRemovals,
      )
    : undefined;
  if (overBudget !== undefined) throw new ResourceOperationError(`${operation} failed: ${overBudget}`);
  const total = ledger.size;
  const marker = await stackMarker();
  const run = startRun(
    { client, fleet, settings, ledger, operation, marker, leaving: true },
    total,
    "removed",
  );
  await inOrder(run, [() => removeDevices(run, ledger.serials(), false)]);
  if (run.quota) {
    // The engine keeps the fleet's state as it was; the next delete finds the deleted ones gone.
    throw new ResourceOperationError(
      `${operation} stopped: ${quotaSpent(run.quota)}. ${total - ledger.size} of ${total} devices were ` +
        "deleted; the fleet stays in the stack until the rest are. Run the command again once the quota has " +
        "renewed (the next day)",
      { cause: run.quota, code: run.quota.code },
    );
  }
  if (run.failures.length > 0) throw new ResourceOperationError(describeFailures(run, total));
}

/** The fleet's devices its delete would remove: those no other resource manages. */
function devicesToDelete(fleet: string, ledger: FleetLedger): string[] {
  const owner = fleetOwner(fleet, true);
  return ledger
    .serials()
    .filter((sn) => otherOwner({ deviceId: ledger.deviceIdOf(sn) as string, sn }, owner) === undefined);
}
