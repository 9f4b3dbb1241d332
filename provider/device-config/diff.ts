/**
 * The DeviceConfig's one diff: each changed property id (`properties.reportInterval`), each
 * template key, `deviceIds`, `version`, `resetOnDelete`, and owed work (`pending`), from one
 * comparison (changes.ts). Both front-ends answer it: the dynamic one its changes and replaces.
 */
import type { Inputs } from "../shared/input-checks";
import type { KindDiff, PropertyChange } from "../core/diff";
import { listForHumans } from "./apply";
import { configChanges, diffConfig } from "./changes";
import { desiredConfig, knownDeviceIds } from "./inputs";
import { pendingOf } from "./pending";
import { methodOf } from "./state";
import { log } from "../output/log";

/** Says which devices still owe work from a failed write (the reason a declaration unchanged differs). */
export async function announcePending(id: string, olds: Inputs): Promise<void> {
  const pending = pendingOf(olds);
  const devices = Object.keys(pending);
  if (devices.length === 0) return;
  const unknown = devices.filter((d) => pending[d]?.unknown);
  await log.info(
    `DeviceConfig ${id}: not confirmed on the platform for ${devices.length} device(s) ` +
      `(${listForHumans(devices, 5)})` +
      (unknown.length > 0 ? `, ${unknown.length} of them after a task call that got no answer` : "") +
      "; `pulumi up` sends what is owed",
  );
}

/** The outputs an in-place update keeps: how it writes, and for a PATCH its (empty) task ids. */
function stablesOf(olds: Inputs, news: Inputs): string[] {
  if (!knownDeviceIds(news)) return [];
  const method = methodOf(desiredConfig(news));
  if (olds.method !== method) return [];
  return method === "patch" ? ["method", "taskIds"] : ["method"];
}

/** The DeviceConfig's one diff. */
export async function deviceConfigDiff(id: string, olds: Inputs, news: Inputs): Promise<KindDiff> {
  await announcePending(id, olds);
  const changes = configChanges(olds, news);
  // The decisions (changes, replaces, delete first) are diffConfig's; the paths are configChanges'.
  const decisions = diffConfig(olds, news);
  const { replaces } = decisions;
  const replacing = replaces.length > 0;
  const detailedDiff: Record<string, { kind: PropertyChange; inputDiff: boolean }> = {};
  for (const [path, change] of changes) {
    // A switch between properties and profile replaces: both sides of it show as replacing.
    const replacesHere = replacing && (change.top === "properties" || change.top === "profile");
    const kind: PropertyChange = replacesHere ? `${change.kind}_REPLACE` : change.kind;
    detailedDiff[path] = { kind, inputDiff: change.top !== "pending" };
  }
  return {
    ...decisions,
    stables: replacing ? [] : stablesOf(olds, news),
    detailedDiff,
  };
}
