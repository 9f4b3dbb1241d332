/**
 * One RPS record, one owner: which serial numbers this deployment's RpsProfile resources declare
 * (from `check`) and which records they created or adopted (from `create`), so that an RpsProfile's
 * delete never removes a record another RpsProfile now manages.
 *
 * The case that matters: renaming an RpsProfile resource without an alias. The engine creates the
 * new resource — which adopts the record without a write, its URL being the declared one — and
 * deletes the old one at the end of the deployment. Without this record that delete removes the
 * record the new resource just took, and the next preview is clean.
 *
 * RpsProfile resources cannot be told apart (a dynamic provider is not told the resource's name),
 * and need not be: an RpsProfile that deletes the record of `sn` in a deployment has not declared
 * `sn` in it — a changed `sn` replaces the resource, and the replacement declares the new one — so
 * a declaration or claim of `sn` seen by a deleting RpsProfile is always another resource's (or,
 * after `up --replace`, its own replacement's, which needs the record kept just the same).
 * The device part of one-owner is in `ownership.ts`. Module-level sets are this process's record;
 * the deployment's other provider processes (the plugin beside the dynamic host, in a move) publish
 * theirs through `shared-record.ts`, read by `declarationsSettled` before a delete decides.
 */
import { noteDeclaration, serialKey } from "./ownership";
import { onOthersFact, publish } from "../deployment/shared-record";
import { machineMs } from "../deployment/machine-clock";

const declared = new Set<string>();
const taken = new Set<string>();
const remoteDeclared = new Set<string>();
const remoteTaken = new Set<string>();
/** Serial numbers each RpsFleet declares, by its name; the others' under `writer\u0000name`. */
const batches = new Map<string, ReadonlySet<string>>();
const remoteBatches = new Map<string, ReadonlySet<string>>();

onOthersFact((fact, writer) => {
  if (fact.t === "rps-declare") remoteDeclared.add(serialKey(fact.sn));
  else if (fact.t === "rps-claim") remoteTaken.add(serialKey(fact.sn));
  else if (fact.t === "rps-batch-declare") {
    remoteBatches.set(`${writer}\u0000${fact.batch}`, new Set(fact.serials.map(serialKey)));
  }
});

/** Records that an RpsProfile of this deployment declares `sn` (called from `check`). */
export function declareRpsRecord(sn: string): void {
  declared.add(serialKey(sn));
  noteDeclaration();
  publish({ t: "rps-declare", sn, at: machineMs() });
}

/** Records that an RpsProfile of this deployment created or adopted the record of `sn`. */
export function claimRpsRecord(sn: string): void {
  taken.add(serialKey(sn));
  try {
    publish({ t: "rps-claim", sn });
  } catch (error) {
    // The record is already specified or adopted: never lose that; the check's declaration stands.
    process.stderr.write(
      `devplatform: could not publish to the deployment's one-owner record: ${String(error)}\n`,
    );
  }
}

/**
 * Whether another RpsProfile of this deployment manages the record of `sn`, and how: `took` it
 * (created or adopted it) or `declares` it. Undefined when none does.
 */
export function rpsRecordOwner(sn: string): "took" | "declares" | undefined {
  const key = serialKey(sn);
  if (taken.has(key) || remoteTaken.has(key)) return "took";
  if (declared.has(key) || remoteDeclared.has(key)) return "declares";
  return batchesDeclaring(sn).length > 0 ? "declares" : undefined;
}

/**
 * Records every serial number the RpsFleet `batch` declares (called from its `check`), replacing
 * its previous declaration, so that a serial number it no longer lists is not its own.
 *
 * Batches are told apart by name (the resource's name, which is the batch's id): the seam where
 * owners across stacks would come in — RPS records carry no owner tag on the platform, so the rule
 * is kept within one deployment.
 */
export function declareRpsBatch(batch: string, serials: readonly string[]): void {
  batches.set(batch, new Set(serials.map(serialKey)));
  noteDeclaration();
  publish({ t: "rps-batch-declare", batch, serials: [...serials], at: machineMs() });
}

/**
 * The RpsFleets of this deployment that declare `sn`, other than `except` (by name): this process's,
 * then the others' (named with `(served by another provider process)`).
 */
export function batchesDeclaring(sn: string, except?: string): string[] {
  const key = serialKey(sn);
  // Walked, not copied: a batch's check asks this for each of its records (10,000 copies of the maps
  // cost its preview tens of milliseconds).
  const names: string[] = [];
  for (const [name, serials] of batches) if (name !== except && serials.has(key)) names.push(name);
  for (const [id, serials] of remoteBatches) {
    // Another process's batch of this name is this batch served there before (a move): not another.
    const name = id.split("\u0000")[1];
    if (name !== except && serials.has(key)) names.push(`${name ?? ""} (served by another provider process)`);
  }
  return names;
}

/** Whether an RpsProfile of this deployment declares the record of `sn` (its check ran). */
export function rpsProfileDeclares(sn: string): boolean {
  const key = serialKey(sn);
  return declared.has(key) || remoteDeclared.has(key);
}

/** Forgets every declaration and claim (tests: each deployment starts empty). */
export function resetRpsOwnership(): void {
  declared.clear();
  taken.clear();
  remoteDeclared.clear();
  remoteTaken.clear();
  batches.clear();
  remoteBatches.clear();
}
