/**
 * The plan of a batch as one message, printed at preview (and `up`) — `preview --diff` of a large
 * batch would list every record — with the counts and at most 20 serial numbers per category,
 * removals first, as the `up` does them:
 *
 *   RpsFleet shipment-7: 2 to remove (…), 1 handed over to a device resource (…), 3 to add (…),
 *   1 to change (AC0000F10004: https://a → https://b), 9,994 unchanged
 */
import { listSome } from "../device-fleet/message";
import type { RpsFleetPlan } from "./plan";

const count = (n: number) => n.toLocaleString("en-US");

function category(label: string, items: readonly string[], separator?: string): string | undefined {
  return items.length === 0
    ? undefined
    : `${count(items.length)} ${label} (${listSome(items, undefined, separator)})`;
}

/**
 * The message of a plan; `handedOver` are removals another resource of the deployment takes as a
 * device (deleted all the same, but not counted as removals), `kept` removals another RPS resource
 * declares (left on the platform).
 */
export function describeRpsPlan(
  batch: string,
  plan: RpsFleetPlan,
  handedOver: ReadonlySet<string> = new Set(),
  kept: ReadonlySet<string> = new Set(),
): string {
  const removed = plan.removals.filter((sn) => !handedOver.has(sn) && !kept.has(sn));
  const parts = [
    category("to remove", removed),
    category("handed over to a device resource", [...handedOver]),
    category("moved to another RPS resource (left on the platform)", [...kept]),
    category("to add", plan.adds),
    category(
      "to change",
      plan.updates.map(({ sn, from, to }) => `${sn}: ${from} → ${to}`),
      "; ",
    ),
    `${count(plan.unchanged)} unchanged`,
  ].filter((part) => part !== undefined);
  return `RpsFleet ${batch}: ${parts.join(", ")}`;
}

/** The message of a batch new to the stack (no request at preview: adoption is told at create). */
export function describeNewRpsFleet(batch: string, serials: readonly string[]): string {
  return (
    `RpsFleet ${batch}: ${count(serials.length)} to add (${listSome(serials)}); records already on the platform ` +
    "with the declared URL are adopted without a write"
  );
}
