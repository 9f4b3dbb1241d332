/**
 * The DeviceFleet implementation behind the serialized provider: many devices in one engine
 * resource, planned and reconciled by serial number.
 */
import { declarationsSettled, declareSerials, otherOwner, programRan } from "../guardrails/ownership";
import { serialsDeclaredTwice } from "../guardrails/duplicate-serials";
import { platformClient, providerSettings } from "../platform-access/platform-client";
import {
  fleetDeleteOverBudget,
  fleetReleaseOverBudget,
  fleetRemovalFailure,
  removalProblem,
} from "./removal-guard";
import { describeFailure, PartialSuccessError, ResourceOperationError } from "../shared/errors";
import type { Inputs } from "../shared/input-checks";
import { needsUpdate } from "../device/desired";
import { changesProject } from "../device/project-tag";
import {
  checkFleetInputs,
  entriesOf,
  mayTakeOver,
  settingsOf,
  type FleetEntries,
  type FleetSettings,
} from "./inputs";
import { findDevices, type PlatformIndex } from "./lookup";
import { describeNewFleet, type Adoptable } from "./message";
import { planFleet } from "./plan";
import type { KindDefinition } from "../core/kind";
import { deviceFleetDiff } from "./diff";
import { deviceFleetInputsOf, importDeviceFleet } from "./import";
import { fleetRecordedInputs } from "./recorded-inputs";
import { deviceFleetResourceSpec, deviceFleetTypes } from "./schema";
import { refreshFleet } from "./read";
import { applyPlan, removeDevices } from "./reconcile";
import { fleetOwner, fleetProgress, type FleetRun } from "./fleet-run";
import { figureNote, type Adoption } from "./request-count";
import { describeFailures, describeQuotaStop } from "./run-report";
import { quotaRefusalOf, quotaSpent } from "../shared/quota";
import { FleetLedger } from "./state";
import { log } from "../output/log";
import { stackMarker } from "../guardrails/stack-marker";
import { adoptionOwnerIn } from "../shared/owner-marker";

/**
 * The lookup a new fleet's preview message made, kept for the create that follows in the same
 * deployment (a minute at most), so an `up` of a new fleet looks its devices up once.
 */
const recentLookups = new Map<string, { at: number; index: PlatformIndex }>();
const LOOKUP_REUSE_MS = 60_000;

function takeRecentLookup(fleet: string): PlatformIndex | undefined {
  const recent = recentLookups.get(fleet);
  recentLookups.delete(fleet);
  return recent && Date.now() - recent.at < LOOKUP_REUSE_MS ? recent.index : undefined;
}

function fleetNameOf(inputs: Inputs, id?: string): string {
  return typeof inputs.fleetName === "string" && inputs.fleetName !== "" ? inputs.fleetName : (id ?? "");
}

/**
 * What a new fleet will find on the platform: adopted unchanged, adopted with a PUT (retagged too),
 * or refused for another stack's owner tag.
 */
function adoptableOf(
  entries: FleetEntries,
  index: PlatformIndex,
  settings: FleetSettings,
  marker: string | undefined,
): Adoptable {
  let onPlatform = 0;
  let unchanged = 0;
  const otherProject: string[] = [];
  const otherStack: string[] = [];
  for (const [sn, entry] of Object.entries(entries)) {
    const existing = index.bySn.get(sn.toUpperCase());
    if (!existing) continue;
    onPlatform += 1;
    const want = { ...entry, sn };
    const owner = marker === undefined ? undefined : adoptionOwnerIn(existing.tag, marker);
    if (owner !== undefined && !mayTakeOver(settings, sn, existing.tag)) otherStack.push(`${sn} (${owner})`);
    if (changesProject(existing, want)) otherProject.push(sn);
    if (!needsUpdate(existing, want, marker)) unchanged += 1;
  }
  return { onPlatform, unchanged, otherProject, otherStack, refused: !settings.adoptExisting };
}

/** How each declared device already on the platform is adopted (refused adoptions write nothing). */
function adoptionsOf(
  entries: FleetEntries,
  index: PlatformIndex,
  adoptExisting: boolean,
  marker: string | undefined,
): Map<string, Adoption> {
  const adoptions = new Map<string, Adoption>();
  for (const [sn, entry] of Object.entries(entries)) {
    const existing = index.bySn.get(sn.toUpperCase());
    if (!existing) continue;
    const want = { ...entry, sn };
    const kind = !adoptExisting || !needsUpdate(existing, want, marker) ? "unchanged" : "update";
    adoptions.set(sn.toUpperCase(), kind === "update" && changesProject(existing, want) ? "retag" : kind);
  }
  return adoptions;
}

/**
 * The first preview of a fleet says how many of its devices are on the platform already, and the
 * requests its `up` makes (the lookup made here included: the `up` makes it again in its check).
 */
async function announceNewFleet(fleet: string, entries: FleetEntries, inputs: Inputs): Promise<void> {
  const serials = Object.keys(entries);
  const settings = settingsOf(inputs);
  let adoptable: Adoptable | undefined;
  let figure = "";
  try {
    const client = await platformClient();
    const marker = await stackMarker();
    const index = await findDevices(client, { serials }, settingsOf({}).concurrency);
    recentLookups.set(fleet, { at: Date.now(), index });
    adoptable = adoptableOf(entries, index, settings, marker);
    const ledger = new FleetLedger();
    figure = figureNote(planFleet(ledger, entries, marker), entries, ledger, inputs, {
      applicationSize: index.applicationSize ?? index.byId.size,
      onPlatform: adoptionsOf(entries, index, settings.adoptExisting, marker),
      ownerTag: marker !== undefined,
    });
  } catch (error) {
    // The message is informative only; the create reports the platform's error if it persists.
    const why = error instanceof Error ? error.message : String(error);
    await log.warn(`DeviceFleet ${fleet}: could not look for devices already on the platform: ${why}`);
  }
  await log.info(describeNewFleet(fleet, entries, adoptable) + figure);
}

async function runPlan(
  operation: string,
  fleet: string,
  ledger: FleetLedger,
  inputs: Inputs,
  known?: PlatformIndex,
) {
  const entries = entriesOf(inputs) ?? {};
  const settings = settingsOf(inputs);
  const marker = await stackMarker();
  const plan = planFleet(ledger, entries, marker);
  if (settings.maxRemovals !== undefined && plan.removals.length > settings.maxRemovals) {
    throw new ResourceOperationError(
      `${operation} failed: it would remove ${plan.removals.length} devices, more than maxRemovals ` +
        `${settings.maxRemovals}; nothing was written`,
    );
  }
  // The check held these at preview; held again here, before the first write, since an `up` may
  // skip its preview and the deployment's other processes may have charged the budget since.
  if (settings.onRemove === "delete" && plan.removals.length > 0) await declarationsSettled();
  const overRule = await removalProblem(fleet, plan.removals, ledger.size, settings, (sn) =>
    ledger.deviceIdOf(sn),
  );
  if (overRule !== undefined) throw new ResourceOperationError(`${operation} failed: ${overRule}`);
  const client = await platformClient();
  const run: FleetRun = { client, fleet, settings, ledger, operation, failures: [], marker };
  try {
    await applyPlan(run, plan, entries, known);
  } catch (error) {
    // A lookup refused for the quota ends the run like a refused write: what was done is recorded.
    const refusal = quotaRefusalOf(error);
    if (!refusal) throw error;
    run.quota ??= refusal;
  }
  const outs = ledger.toOutputs(fleet, inputs);
  if (run.quota) {
    throw new PartialSuccessError(describeQuotaStop(run, plan, entries), fleet, outs, {
      cause: run.quota,
      code: run.quota.code,
    });
  }
  const attempted = plan.adds.length + plan.updates.length + plan.removals.length;
  if (run.failures.length > 0) throw new PartialSuccessError(describeFailures(run, attempted), fleet, outs);
  return outs;
}

/** The fleet's devices its delete would remove: those no other resource manages. */
function devicesToDelete(fleet: string, ledger: FleetLedger): string[] {
  const owner = fleetOwner(fleet, true);
  return ledger
    .serials()
    .filter((sn) => otherOwner({ deviceId: ledger.deviceIdOf(sn) as string, sn }, owner) === undefined);
}

/** The DeviceFleet kind: what both front-ends call. */
export const deviceFleetImplementation: KindDefinition = {
  spec: deviceFleetResourceSpec,
  types: deviceFleetTypes,
  importRead: (id, name) => importDeviceFleet(id, name),
  inputsOf: deviceFleetInputsOf,
  recordedInputs: fleetRecordedInputs,

  async check(olds, news) {
    const { inputs, failures } = checkFleetInputs(olds, news);
    const entries = entriesOf(inputs);
    if (failures.length > 0 || !entries) return { inputs, failures };
    const fleet = fleetNameOf(inputs);
    declareSerials(
      fleetOwner(fleet),
      Object.entries(entries).map(([sn, entry]) => ({ sn, project: entry.project })),
    );
    // On no property: the engine prints a failing property's whole value, here every entry.
    const twice = await serialsDeclaredTwice(fleetOwner(fleet), Object.keys(entries), "");
    if (twice.length > 0) return { inputs, failures: twice };
    const removal = await fleetRemovalFailure(fleet, entriesOf(olds), entries, settingsOf(inputs));
    if (removal !== undefined) return { inputs, failures: [removal] };
    // A fleet new to the stack is created without a diff: its plan is told here.
    if (Object.keys(olds).length === 0) await announceNewFleet(fleet, entries, inputs);
    return { inputs, failures };
  },

  async diff(id, olds, news) {
    return deviceFleetDiff(fleetNameOf(news, id), olds, news, await stackMarker());
  },

  async create(inputs) {
    const fleet = fleetNameOf(inputs);
    const outs = await describeFailure(`create DeviceFleet ${fleet}`, () =>
      runPlan(`create DeviceFleet ${fleet}`, fleet, new FleetLedger(), inputs, takeRecentLookup(fleet)),
    );
    return { id: fleet, outs };
  },

  async read(id, props) {
    const fleet = fleetNameOf(props, id);
    return describeFailure(`read DeviceFleet ${fleet}`, () => refreshFleet(id, fleet, props));
  },

  async update(id, olds, news) {
    const fleet = fleetNameOf(news, id);
    const operation = `update DeviceFleet ${fleet}`;
    const outs = await describeFailure(operation, () =>
      runPlan(operation, fleet, FleetLedger.fromOutputs(olds), news),
    );
    return { outs };
  },

  async delete(id, props) {
    const fleet = fleetNameOf(props, id);
    const operation = `delete DeviceFleet ${fleet}`;
    await describeFailure(operation, async () => {
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
      const progress = fleetProgress(fleet, total, "removed");
      const run: FleetRun = {
        client,
        fleet,
        settings,
        ledger,
        operation,
        failures: [],
        progress,
        leaving: true,
        marker: await stackMarker(),
      };
      try {
        await removeDevices(run, ledger.serials(), false);
      } catch (error) {
        run.quota = quotaRefusalOf(error);
        if (!run.quota) throw error;
      }
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
    });
  },
};
