/**
 * The steps of the other kinds as the review lists them: a Device resource is one device (added,
 * updated, removed or replaced by serial number); a DeviceConfig or an RpsProfile is a
 * configuration change, with the properties that change before and after.
 */
import type { ConfigChange, DeviceAction, FieldChange, ResourceChanges } from "./review-model";
import type { PreviewStep } from "./preview";
import { holdsUnknown, isRecord, sameValue } from "./values";

/** Steps that change nothing. */
const UNCHANGED_OPS = new Set(["same", "read", "refresh", "discard", "remove-pending-replace"]);

/** The resource's name in its URN. */
export function resourceName(urn: string): string {
  return urn.split("::").pop() ?? urn;
}

/** The kind of a type token of either front-end, or undefined for a type of another package. */
export function kindOf(type: string): string | undefined {
  const match = /^(?:devplatform:index:|pulumi-nodejs:dynamic\/devplatform:)(\w+)$/.exec(type);
  return match?.[1];
}

/** Whether the step changes nothing. */
export function unchangedStep(step: PreviewStep): boolean {
  return UNCHANGED_OPS.has(step.op);
}

/** The engine's bookkeeping inputs (a dynamic resource's serialized provider). */
function ownInputs(inputs: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(inputs ?? {}).filter(([key]) => !key.startsWith("__")));
}

/**
 * The inputs that differ, one level deep into objects (`properties.reportInterval`), skipping
 * `skip` (listed apart, such as a DeviceConfig's device ids).
 */
export function changedInputs(
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
  skip: readonly string[] = [],
): FieldChange[] {
  const olds = ownInputs(before);
  const news = ownInputs(after);
  const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((k) => !skip.includes(k));
  const changes: FieldChange[] = [];
  for (const key of keys.sort()) {
    const [a, b] = [olds[key], news[key]];
    if (sameValue(a, b)) continue;
    if (isRecord(a) && isRecord(b) && !("ciphertext" in a) && !("ciphertext" in b)) {
      for (const inner of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
        if (!sameValue(a[inner], b[inner]))
          changes.push({ field: `${key}.${inner}`, before: a[inner], after: b[inner] });
      }
    } else changes.push({ field: key, before: a, after: b });
  }
  return changes;
}

function actionOf(op: string): DeviceAction | undefined {
  if (op === "create") return "add";
  if (op === "delete") return "remove";
  if (op === "update") return "update";
  if (op === "replace") return "replace";
  return undefined; // create-replacement, delete-replaced: told once, by `replace`
}

/** A Device resource's step: one device. */
export function deviceResourceChanges(step: PreviewStep): ResourceChanges {
  const action = actionOf(step.op);
  if (unchangedStep(step) || action === undefined) return { devices: [], unchanged: 1, notes: [] };
  const sn = String(
    step.new?.inputs.sn ?? step.old?.inputs.sn ?? step.old?.outputs.sn ?? resourceName(step.urn),
  );
  const fields =
    action === "update" || action === "replace" ? changedInputs(step.old?.inputs, step.new?.inputs) : [];
  // What a move to or from another resource of the stack is found from (reviewOf pairs them).
  const provider = (action === "add" ? step.new : step.old)?.provider;
  const values =
    action === "add"
      ? ownInputs(step.new?.inputs)
      : action === "remove"
        ? ownInputs(step.old?.inputs)
        : undefined;
  return {
    devices: [
      {
        sn,
        action,
        resource: `Device ${resourceName(step.urn)}`,
        fields,
        ...(values ? { values } : {}),
        ...(provider ? { provider } : {}),
      },
    ],
    unchanged: 0,
    notes: [],
  };
}

function deviceCount(ids: unknown): unknown {
  if (holdsUnknown(ids)) return ids;
  if (Array.isArray(ids)) return `${ids.length} device${ids.length === 1 ? "" : "s"}`;
  if (typeof ids === "string") return "1 device";
  return "devices";
}

/** A DeviceConfig's or an RpsProfile's step, or undefined when it changes nothing. */
export function configChange(kind: string, step: PreviewStep): ConfigChange | undefined {
  if (unchangedStep(step) || step.op === "create-replacement" || step.op === "delete-replaced")
    return undefined;
  const skip = kind === "DeviceConfig" ? ["deviceIds"] : [];
  const fields = changedInputs(step.old?.inputs, step.new?.inputs, skip);
  if (kind === "DeviceConfig") {
    const [before, after] = [step.old?.inputs.deviceIds, step.new?.inputs.deviceIds];
    if (!sameValue(before, after)) {
      fields.push({
        field: "deviceIds",
        before: before === undefined ? undefined : deviceCount(before),
        after: after === undefined ? undefined : deviceCount(after),
      });
    }
  }
  const devicesAtApply =
    step.op === "update" &&
    fields.length === 1 &&
    fields[0]?.field === "deviceIds" &&
    holdsUnknown(step.new?.inputs.deviceIds);
  return {
    resource: `${kind} ${resourceName(step.urn)}`,
    op: step.op,
    fields,
    ...(devicesAtApply ? { devicesAtApply } : {}),
  };
}
