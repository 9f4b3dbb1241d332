/**
 * The plugin's diff of a DeviceConfig: each changed property id (`properties.reportInterval`), each
 * template key, `deviceIds`, `version`, `resetOnDelete`, and owed work (`pending`), from the same
 * comparison as the dynamic diff (diff.ts).
 */
import type { Inputs } from "../shared/input-checks";
import type { PluginDiff, PropertyChange } from "../plugin/contract";
import { listForHumans } from "./apply";
import { configChanges, replacedBy } from "./diff";
import { desiredConfig, knownDeviceIds } from "./inputs";
import { pendingOf } from "./pending";
import { methodOf } from "./state";
import { log } from "../runtime/log";

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

/** The plugin's diff of a DeviceConfig. */
export async function deviceConfigPluginDiff(id: string, olds: Inputs, news: Inputs): Promise<PluginDiff> {
  await announcePending(id, olds);
  const changes = configChanges(olds, news);
  const replaces = replacedBy(olds, news);
  const replacing = replaces.length > 0;
  const detailedDiff: Record<string, { kind: PropertyChange; inputDiff: boolean }> = {};
  for (const [path, change] of changes) {
    // A switch between properties and profile replaces: both sides of it show as replacing.
    const replacesHere = replacing && (change.top === "properties" || change.top === "profile");
    const kind: PropertyChange = replacesHere ? `${change.kind}_REPLACE` : change.kind;
    detailedDiff[path] = { kind, inputDiff: change.top !== "pending" };
  }
  return {
    changes: changes.size > 0,
    replaces,
    stables: replacing ? [] : stablesOf(olds, news),
    deleteBeforeReplace: replacing,
    detailedDiff,
  };
}
