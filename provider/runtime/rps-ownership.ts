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
import { onOthersFact, publish } from "./shared-record";
import { machineMs } from "./machine-clock";

const declared = new Set<string>();
const taken = new Set<string>();
const remoteDeclared = new Set<string>();
const remoteTaken = new Set<string>();

onOthersFact((fact) => {
  if (fact.t === "rps-declare") remoteDeclared.add(serialKey(fact.sn));
  else if (fact.t === "rps-claim") remoteTaken.add(serialKey(fact.sn));
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
  return declared.has(key) || remoteDeclared.has(key) ? "declares" : undefined;
}

/** Forgets every declaration and claim (tests: each deployment starts empty). */
export function resetRpsOwnership(): void {
  declared.clear();
  taken.clear();
  remoteDeclared.clear();
  remoteTaken.clear();
}
