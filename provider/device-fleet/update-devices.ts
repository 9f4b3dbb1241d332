/**
 * The last step of a fleet's `up`: the devices it manages that differ from their declaration, or
 * lack this stack's owner tag. In order: the owners of those recorded without the tag are checked
 * (one lookup, `owner-marks.ts`; another stack's tag refuses the device, writing nothing); each
 * changed device gets one PUT of its whole declared state, a changed project then confirmed; each
 * unchanged device without the tag gets it by one PUT; each is recorded in the ledger as it ends.
 */
import { updateBody } from "../device/desired";
import { confirmProject, ProjectNotAppliedError, withProject } from "../device/project-tag";
import { tslVersionApplied } from "../tsl/versions";
import { eachDevice, fail, type FleetRun } from "./fleet-run";
import type { FleetEntries, FleetEntry } from "./inputs";
import { checkOwners, markDevices } from "./owner-marks";
import type { FleetPlan, PlannedUpdate } from "./plan";

/** Checks the owners of the plan's updates and marks, then sends the updates, then the marks. */
export async function updateDevices(run: FleetRun, plan: FleetPlan, declared: FleetEntries): Promise<void> {
  const { updates, marks, refused } = await checkOwners(run, plan);
  for (const { item, error } of refused) fail(run, item, "update", error);
  run.progress.advance(plan.updates.length - updates.length + plan.marks.length - marks.length);
  await putUpdates(run, updates, declared);
  if (run.quota) return;
  for (const { item, error } of await markDevices(run, marks, declared)) {
    fail(run, item, "give the owner tag to", error);
  }
}

/**
 * One PUT of the whole declared state for each changed device. A device whose project changes is
 * then confirmed (one GET, unless the answer reports the project): a platform that ignored the
 * project fails that device, naming it, and the fleet records the project the platform has.
 */
async function putUpdates(
  run: FleetRun,
  updates: readonly PlannedUpdate[],
  declared: FleetEntries,
): Promise<void> {
  const failures = await eachDevice(run, updates, async ({ sn, fields }: PlannedUpdate) => {
    const entry = declared[sn] as FleetEntry;
    const deviceId = run.ledger.deviceIdOf(sn) as string;
    const want = { ...entry, sn };
    const answer = await run.client.updateDevice(updateBody(deviceId, want, run.marker));
    if (entry.tslVersion) tslVersionApplied(deviceId, entry.tslVersion);
    // Recorded under the declared spelling of the serial number.
    const info = run.ledger.infoOf(sn);
    const before = run.ledger.appliedOf(sn);
    run.ledger.forget(sn);
    try {
      if (fields.includes("project")) {
        await confirmProject(run.client, deviceId, answer, want, `${run.operation}: update ${sn}`);
      }
      run.ledger.record(sn, deviceId, entry, info);
      run.ledger.setMarked(sn);
    } catch (error) {
      // Everything but the project is applied; the project as the platform has it (or, unconfirmed,
      // as it was), so that the next `up` sends it again.
      const project = error instanceof ProjectNotAppliedError ? error.device.project : before?.project;
      run.ledger.record(sn, deviceId, withProject(entry, project), info);
      run.ledger.setMarked(sn);
      throw error;
    }
  });
  for (const { item, error } of failures) fail(run, item.sn, "update", error);
}
