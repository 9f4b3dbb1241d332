/**
 * What a DeviceConfig tells the user after writes that did not all succeed: which failure is a
 * partial success (state records what was done and what is still owed), what a lost task answer
 * means for TSL and for PROFILE, and what to do about a PROFILE call that may exist.
 */
import { appliedAny, listForHumans, notAppliedMessage, type WriteOutcome } from "./apply";
import type { PendingWork } from "./pending";
import { MAX_DEVICES_PER_TASK } from "../../sdk";
import { operationFailed, PartialSuccessError } from "../shared/errors";
import { requestCount } from "../shared/quota";
import type { Inputs } from "../shared/input-checks";

function devicesText(deviceIds: readonly string[]): string {
  return `${deviceIds.length} device(s) (${listForHumans(deviceIds, 5)})`;
}

/** The sentence about a task call whose answer was lost, by task type. */
export function lostCallSentence(type: "TSL" | "PROFILE", deviceIds: readonly string[]): string {
  const which = devicesText(deviceIds);
  if (type === "PROFILE") {
    return (
      `The PROFILE task call for ${which} got no answer: the platform may have created those tasks, and it ` +
      "reports a PROFILE task's result only by webhook, so it is not sent again, by this or the next " +
      "`pulumi up`. Check the task results your webhook received for these devices; to send the template " +
      "again, change `version` and run `pulumi up`"
    );
  }
  return (
    `The task call for ${which} got no answer: the platform may have created those tasks, so it was not ` +
    "repeated, and the stack records it as pending. The next `pulumi up` reads these devices: what they " +
    "show applied is not sent again; what they do not show (a task still waiting on the platform, or a " +
    "change of `version` alone, which no read can show) is sent again, with a warning"
  );
}

/** The error of an update that held back PROFILE calls that may exist. */
export function heldMessage(operation: string, held: PendingWork, version: string | undefined): string {
  const devices = Object.keys(held);
  const first = held[devices[0] as string]?.unknown;
  const when = first ? ` made at ${first.since} (${first.detail})` : "";
  const example = version === undefined ? `"2"` : `"${version}-resend"`;
  return (
    `${operation} failed: the PROFILE task call${when} for ${devicesText(devices)} got no answer: the ` +
    "platform may have created those tasks, and it reports a PROFILE task's result only by webhook, so it " +
    "is not sent again. Check the task results your webhook received for these devices; to send the " +
    `template again, change \`version\` (e.g. to ${example}) and run \`pulumi up\``
  );
}

/** The warning before a lost TSL call is sent again. */
export function resendWarning(id: string, deviceIds: readonly string[], detail: string): string {
  return (
    `DeviceConfig ${id}: an earlier task call for ${devicesText(deviceIds)} got no answer (${detail}), and ` +
    "these devices do not show its values: sending it again. A TSL task writes absolute values: if the " +
    "first call did create its task, the devices get the same values twice"
  );
}

/**
 * The configuration writes still owed, for a quota message: one call per 500 devices of each write
 * (the same values to the same devices' properties), one PATCH for a single device.
 */
function writesLeft(outcome: WriteOutcome): string {
  const groups = new Map<string, number>();
  for (const n of outcome.notApplied) {
    const key = `${n.purpose}|${n.type}|${n.keys.join(",")}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  const calls = [...groups.values()].reduce(
    (sum, devices) => sum + Math.ceil(devices / MAX_DEVICES_PER_TASK),
    0,
  );
  return `${requestCount(calls)} (configuration writes for the devices that did not get theirs)`;
}

/**
 * Turns writes that did not all succeed into the right failure. A write that failed after others
 * succeeded, or whose answer was lost, is a partial success: state records the tasks created and, in
 * `pending`, what each other device is still owed (`unknown` where the call may have been performed),
 * so that the next `up` sends it — or, after a lost answer, decides by what the platform shows. A
 * create whose every call definitely failed achieved nothing: a plain failure, nothing to record.
 */
export function failIfPartial(
  operation: string,
  id: string,
  outs: Inputs,
  outcome: WriteOutcome,
  kind: "create" | "update",
): void {
  const lost = outcome.notApplied.filter((n) => n.unknown && n.purpose === "apply");
  if (outcome.error !== undefined) {
    if (kind === "create" && !appliedAny(outcome) && lost.length === 0) throw outcome.error;
    const configured = Object.keys(outcome.taskIds).length;
    const done =
      configured > 0
        ? `Tasks were created for ${configured} device(s); they are recorded in the stack.`
        : "No task was confirmed.";
    const type = lost[0]?.type ?? "TSL";
    const rest =
      lost.length > 0
        ? ` ${lostCallSentence(type, [...new Set(lost.map((n) => n.deviceId))])}`
        : " The next `pulumi up` sends what the other devices did not get";
    throw new PartialSuccessError(
      `${operationFailed(operation, outcome.error, writesLeft(outcome)).message}. ${done}${rest}`,
      id,
      outs,
      {
        cause: outcome.error,
      },
    );
  }
  if (outcome.notApplied.length > 0)
    throw new PartialSuccessError(notAppliedMessage(operation, outcome), id, outs);
}
