/**
 * The deployment's removal budget (`devplatform:maxRemovals`, `DEVPLATFORM_MAX_REMOVALS`, the
 * plugin's provider input `maxRemovals`): at most that many devices removed in one `up`, across
 * every DeviceFleet and Device, on top of each fleet's own `maxRemovals`. A policy cannot hold it
 * (a policy sees no old state and no operation); the provider sees each resource's removals at
 * `check`, so it is held there, at preview, before any write.
 *
 * Each resource that removes charges its removals here: it publishes them to the deployment's
 * shared record first, then reads what the others published, then sums. Two resources charged at
 * once in two processes each write before they read, so at least one of them sees the other's
 * charge; over the budget, it fails naming every resource that removes, and a failed check fails
 * the preview, so the `up` writes nothing. A record that cannot be read fails the charge (closed).
 * A resource dropped from the program whole is seen by no `check`: its delete is charged when the
 * engine sends it, during the `up`, and refused once over the budget (see {@link chargeDelete}).
 *
 * One budget per deployment: charges are read from every provider process of the deployment,
 * whatever application it serves (two explicit providers on two applications share it), and kept
 * by the resource's URN, so that two resources with one label (two fleets named `sensors` under
 * two parents, in one process or two) are two charges, and one resource charged again (its check,
 * then its update; or a check without a URN first) replaces its charge. Each process holds the
 * total to the budget it is configured with.
 */
import { currentUrn } from "../deployment/request-urn";
import { catchUpWithOthers, onOthersFact, publish, SharedRecordError } from "../deployment/shared-record";

interface Charge {
  readonly resource: string;
  readonly count: number;
  readonly serials: readonly string[];
}

/**
 * Charges by resource: `urn\0<URN>` whoever published it; a charge without a URN by writer and
 * label (`\0<label>` for this process's, `<file>\0<label>` for another's).
 */
const charges = new Map<string, Charge>();

const byUrn = (urn: string) => `urn\u0000${urn}`;

onOthersFact((fact, writer) => {
  if (fact.t !== "removals") return;
  const { resource, count, serials } = fact;
  charges.set(fact.urn === undefined ? `${writer}\u0000${resource}` : byUrn(fact.urn), {
    resource,
    count,
    serials,
  });
});

const SHOWN_SERIALS = 3;

function describeCharge(charge: Charge): string {
  const more = charge.count - charge.serials.length;
  const shown = charge.serials.slice(0, SHOWN_SERIALS).join(", ");
  const rest = more > 0 || charge.serials.length > SHOWN_SERIALS ? `, …` : "";
  return `${charge.resource} removes ${charge.count} (${shown}${rest})`;
}

/** The message of a deployment over its budget, naming every resource that removes. */
export function overBudgetMessage(budget: number, all: readonly Charge[]): string {
  const total = all.reduce((sum, charge) => sum + charge.count, 0);
  const listed = [...all]
    .filter((charge) => charge.count > 0)
    .sort((a, b) => a.resource.localeCompare(b.resource))
    .map(describeCharge)
    .join("; ");
  return (
    `this deployment would remove ${total} devices, more than the stack's removal budget devplatform:maxRemovals ` +
    `${budget}: ${listed}; nothing was written. Check the inventories these resources are read from; if the ` +
    `removals are meant, raise the budget for this change (\`pulumi config set devplatform:maxRemovals ${total}\`)`
  );
}

/**
 * Charges `serials` removed by `resource` (a label such as `DeviceFleet site-a`) against `budget`,
 * replacing the resource's earlier charge in this deployment. Returns the failure message when the
 * deployment's removals, this process's and the others', exceed the budget, or when the others'
 * cannot be read (closed: what they remove is unknown).
 */
export async function chargeRemovals(
  resource: string,
  serials: readonly string[],
  budget: number,
): Promise<string | undefined> {
  const urn = currentUrn();
  const key = urn === undefined ? `\u0000${resource}` : byUrn(urn);
  // The dynamic host's first check may come before a URN is known: that charge, under the
  // resource's label, is this resource's too, not another's.
  if (urn !== undefined) charges.delete(`\u0000${resource}`);
  const previous = charges.get(key);
  if (serials.length === 0 && previous === undefined) return undefined;
  const charge: Charge = { resource, count: serials.length, serials: serials.slice(0, SHOWN_SERIALS) };
  charges.set(key, charge);
  try {
    // Written before the others' are read: see the module's comment.
    publish({
      t: "removals",
      ...charge,
      ...(urn === undefined ? {} : { urn }),
      serials: [...charge.serials],
      at: Date.now(),
    });
    await catchUpWithOthers();
  } catch (error) {
    if (!(error instanceof SharedRecordError)) throw error;
    return (
      `${resource} removes ${serials.length} devices, and the stack's removal budget devplatform:maxRemovals ` +
      `${budget} could not be checked across this deployment's provider processes: ${error.message}`
    );
  }
  const all = [...charges.values()];
  const total = all.reduce((sum, each) => sum + each.count, 0);
  return total > budget ? overBudgetMessage(budget, all) : undefined;
}

/**
 * Charges the delete of a resource the program no longer declares (seen only during the `up`):
 * `serials` on top of what the deployment already charged. Returns the failure message when over.
 */
export async function chargeDelete(
  resource: string,
  serials: readonly string[],
  budget: number,
): Promise<string | undefined> {
  const message = await chargeRemovals(resource, serials, budget);
  return message === undefined
    ? undefined
    : `${message.replace("nothing was written", "this delete wrote nothing")}. A resource dropped from the program ` +
        "whole is seen only when the `up` deletes it, so the deletes before it went ahead";
}

/** Forgets every charge (tests; a new deployment in one process). */
export function resetRemovalBudget(): void {
  charges.clear();
}
