/**
 * The RpsFleet implementation: a batch of RPS records (a shipment's `rps.csv`) in one engine
 * resource, planned and reconciled by serial number. A preview makes no request; an `up` with
 * nothing changed makes none either.
 */
import type { KindDefinition } from "../core/kind";
import { log } from "../output/log";
import { declarationsSettled, declarersOf, describeOwner, programRan } from "../guardrails/ownership";
import { platformClient, providerSettings } from "../platform-access/platform-client";
import { chargeDelete } from "../guardrails/removal-budget";
import { batchesDeclaring, declareRpsBatch, rpsProfileDeclares } from "../guardrails/rps-ownership";
import { catchUpWithOthers } from "../deployment/shared-record";
import { describeFailure, PartialSuccessError, ResourceOperationError } from "../shared/errors";
import type { CheckFailure, Inputs } from "../shared/input-checks";
import { AFTER_RENEWAL, quotaSpent } from "../shared/quota";
import { rpsFleetDiff } from "./diff";
import { splitRemovals, removalProblem } from "./guard";
import { importRpsFleet, rpsFleetInputsOf } from "./import";
import { checkRpsFleetInputs, entriesOf, settingsOf, type RpsEntries } from "./inputs";
import { describeNewRpsFleet } from "./message";
import { planRpsFleet } from "./plan";
import { refreshRpsFleet } from "./read";
import { applyRpsPlan, deleteRecords, type RpsRun } from "./reconcile";
import { rpsFleetRecordedInputs } from "./recorded-inputs";
import { rpsFleetResourceSpec, rpsFleetTypes } from "./schema";
import { RpsLedger } from "./state";

const SHOWN_FAILURES = 20;

function batchNameOf(inputs: Inputs, id?: string): string {
  return typeof inputs.fleetName === "string" && inputs.fleetName !== "" ? inputs.fleetName : (id ?? "");
}

/**
 * One serial number, one owner within the deployment: a record this batch declares that an
 * RpsProfile, another batch, or a Device or DeviceFleet (the device of that serial number) declares
 * too fails the check of the one checked second, naming both. Reported on no property: the engine
 * prints a failing property's whole value, here every record. RPS records carry no owner tag on the
 * platform, so across stacks nothing is known: this is the seam for owners across stacks.
 */
async function declaredTwice(batch: string, serials: readonly string[]): Promise<CheckFailure[]> {
  await catchUpWithOthers();
  const failures: CheckFailure[] = [];
  let more = 0;
  for (const sn of serials) {
    const others = [
      ...(rpsProfileDeclares(sn) ? ["an RpsProfile resource"] : []),
      ...batchesDeclaring(sn, batch).map((name) => `RpsFleet "${name}"`),
      ...declarersOf(sn).map((owner) => `${describeOwner(owner)} (as a device)`),
    ];
    if (others.length === 0) continue;
    if (failures.length >= SHOWN_FAILURES) {
      more += 1;
      continue;
    }
    failures.push({
      property: "",
      reason:
        `serial number ${sn} is declared by RpsFleet "${batch}" and by ${others.join(" and ")}: an RPS record ` +
        "can be declared by one resource of a deployment only, and a device on the platform can have none; " +
        "remove it from all but one",
    });
  }
  if (more > 0) failures.push({ property: "", reason: `… and ${more} more serial numbers declared twice` });
  return failures;
}

function failureReport(run: RpsRun, attempted: number): string {
  const lines = run.failures.slice(0, SHOWN_FAILURES).map((f) => `  - ${f.message}`);
  const more =
    run.failures.length > SHOWN_FAILURES ? `\n  … and ${run.failures.length - SHOWN_FAILURES} more` : "";
  return (
    `${run.operation} failed for ${run.failures.length} of ${attempted} record(s):\n${lines.join("\n")}${more}\n` +
    "Everything else was done and is recorded in the stack; run `pulumi up` again to retry what failed"
  );
}

/** Carries out the plan from `ledger` to the declared records; `adopt` for a new batch. */
async function runPlan(operation: string, batch: string, ledger: RpsLedger, inputs: Inputs, adopt: boolean) {
  const declared: RpsEntries = entriesOf(inputs) ?? {};
  const settings = settingsOf(inputs);
  const plan = planRpsFleet(ledger.entries(), declared);
  // Held again before the first write (an `up` may skip its preview), once every check declared.
  if (plan.removals.length > 0) await declarationsSettled();
  const { deleting, handedOver } = splitRemovals(batch, plan.removals);
  const problem = await removalProblem(batch, deleting, ledger.size, settings);
  if (problem !== undefined) throw new ResourceOperationError(`${operation} failed: ${problem}`);
  const run: RpsRun = { client: await platformClient(), batch, operation, settings, ledger, failures: [] };
  const adopted = await applyRpsPlan(run, plan, declared, [...deleting, ...handedOver], adopt);
  if (adopted > 0)
    await log.info(`RpsFleet ${batch}: adopted ${adopted} records already on the platform without a write`);
  const outs = ledger.toOutputs(batch, inputs);
  if (run.quota) {
    const left = planRpsFleet(ledger.entries(), declared);
    const leftCount = left.adds.length + left.updates.length + left.removals.length;
    throw new PartialSuccessError(
      `${operation} stopped: ${quotaSpent(run.quota)}. Done and recorded in the stack: everything but ${leftCount} ` +
        `record(s) left to write; ${AFTER_RENEWAL}`,
      batch,
      outs,
      { cause: run.quota, code: run.quota.code },
    );
  }
  const attempted = plan.adds.length + plan.updates.length + deleting.length + handedOver.size;
  if (run.failures.length > 0) throw new PartialSuccessError(failureReport(run, attempted), batch, outs);
  return outs;
}

/** The RpsFleet kind: what both front-ends call. */
export const rpsFleetImplementation: KindDefinition = {
  spec: rpsFleetResourceSpec,
  types: rpsFleetTypes,
  importRead: (id, name) => importRpsFleet(id, name),
  inputsOf: rpsFleetInputsOf,
  recordedInputs: rpsFleetRecordedInputs,

  async check(olds, news) {
    const { inputs, failures } = checkRpsFleetInputs(news);
    const entries = entriesOf(inputs);
    if (failures.length > 0 || !entries) return { inputs, failures };
    const batch = batchNameOf(inputs);
    const serials = Object.keys(entries);
    declareRpsBatch(batch, serials);
    const twice = await declaredTwice(batch, serials);
    if (twice.length > 0) return { inputs, failures: twice };
    const before = entriesOf(olds);
    if (before === undefined) {
      // A batch new to the stack is created without a diff: its plan is told here.
      if (Object.keys(olds).length === 0) await log.info(describeNewRpsFleet(batch, serials));
      return { inputs, failures };
    }
    const { deleting } = splitRemovals(batch, planRpsFleet(before, entries).removals);
    const problem = await removalProblem(batch, deleting, Object.keys(before).length, settingsOf(inputs));
    return { inputs, failures: problem === undefined ? [] : [{ property: "", reason: problem }] };
  },

  async diff(id, olds, news) {
    return rpsFleetDiff(batchNameOf(news, id), olds, news);
  },

  async create(inputs) {
    const batch = batchNameOf(inputs);
    const operation = `create RpsFleet ${batch}`;
    const outs = await describeFailure(operation, () =>
      runPlan(operation, batch, new RpsLedger(), inputs, true),
    );
    return { id: batch, outs };
  },

  async read(id, props) {
    const batch = batchNameOf(props, id);
    return describeFailure(`read RpsFleet ${batch}`, () => refreshRpsFleet(id, batch, props));
  },

  async update(id, olds, news) {
    const batch = batchNameOf(news, id);
    const operation = `update RpsFleet ${batch}`;
    const outs = await describeFailure(operation, () =>
      runPlan(operation, batch, RpsLedger.fromOutputs(olds), news, false),
    );
    return { outs };
  },

  async delete(id, props) {
    const batch = batchNameOf(props, id);
    const operation = `delete RpsFleet ${batch}`;
    await describeFailure(operation, async () => {
      const client = await platformClient();
      const ledger = RpsLedger.fromOutputs(props);
      const settings = settingsOf(props);
      await declarationsSettled();
      const { deleting, handedOver } = splitRemovals(batch, ledger.serials());
      // maxRemovals guards the batch's own removal from the program too; `pulumi destroy`, which
      // runs no program, is the user's wish.
      if (programRan() && settings.maxRemovals !== undefined && deleting.length > settings.maxRemovals) {
        throw new ResourceOperationError(
          `${operation} failed: the program no longer declares the batch, and deleting it would delete its ` +
            `${deleting.length} RPS records, more than maxRemovals ${settings.maxRemovals}; nothing was deleted. If ` +
            "the batch is meant to go, raise or remove its maxRemovals and run `pulumi up` before removing it, or " +
            "run `pulumi destroy`",
        );
      }
      const budget = programRan() ? (await providerSettings()).maxRemovals : undefined;
      const over =
        budget === undefined ? undefined : await chargeDelete(`RpsFleet ${batch}`, deleting, budget);
      if (over !== undefined) throw new ResourceOperationError(`${operation} failed: ${over}`);
      const run: RpsRun = { client, batch, operation, settings, ledger, failures: [] };
      const total = deleting.length + handedOver.size;
      await deleteRecords(run, [...deleting, ...handedOver]);
      if (run.quota) {
        throw new ResourceOperationError(
          `${operation} stopped: ${quotaSpent(run.quota)}. ${total - ledger.size} of ${total} records were deleted; ` +
            "the batch stays in the stack until the rest are. Run the command again once the quota has renewed",
          { cause: run.quota, code: run.quota.code },
        );
      }
      if (run.failures.length > 0) throw new ResourceOperationError(failureReport(run, total));
    });
  },
};
