/**
 * What a DeviceConfig declared but the platform has not confirmed: the `pending` output, per device.
 *
 * The engine gives `diff` and `update` the old outputs, so work left over by a failed task call must
 * be in the outputs for the next `preview` to show a change and the next `up` to send it. An entry
 * names the declared keys (TSL property ids, or PROFILE keys) still owed to one device. An entry
 * with `unknown` comes from a task call whose answer was lost (HTTP 500/502/503/504, a reset or a
 * timeout): the platform may have created the task, so the next `up` decides by what the platform
 * shows (see {@link resolvePending}) instead of sending it again blindly.
 *
 * A state recorded by a release without this output loads as "nothing pending".
 */
import { isPlainObject } from "../tsl/validate";
import { unapplied, type CurrentConfig } from "./plan";

/** A task call whose answer was lost. */
export interface UnknownCall {
  /** When the call was made (ISO 8601), for the user to look for its webhook results. */
  readonly since: string;
  /** The failure as the platform or the transport reported it (status, errCode, requestId). */
  readonly detail: string;
  /**
   * Whether the call would change something Get Configuration shows (a TSL value the device did not
   * have): only then can the device's configuration prove that the task applied.
   */
  readonly visible: boolean;
}

/** The work one device is still owed. */
export interface PendingEntry {
  /** Declared keys not confirmed on this device (sent with the resource's `version`). */
  readonly keys: string[];
  /** Set when the call that carried them got no answer. */
  readonly unknown?: UnknownCall;
}

/** deviceId → the work still owed to it. */
export type PendingWork = Record<string, PendingEntry>;

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function unknownCall(value: unknown): UnknownCall | undefined {
  if (!isPlainObject(value)) return undefined;
  return {
    since: typeof value.since === "string" ? value.since : "",
    detail: typeof value.detail === "string" ? value.detail : "",
    visible: value.visible === true,
  };
}

/** The `pending` output of a state; empty for a state without one (an earlier release's). */
export function pendingOf(outputs: Readonly<Record<string, unknown>>): PendingWork {
  const value = outputs.pending;
  if (!isPlainObject(value)) return {};
  const work: PendingWork = {};
  for (const [deviceId, raw] of Object.entries(value)) {
    if (!isPlainObject(raw)) continue;
    const keys = stringList(raw.keys);
    const unknown = unknownCall(raw.unknown);
    if (keys.length > 0) work[deviceId] = unknown ? { keys, unknown } : { keys };
  }
  return work;
}

/** Whether a state has work the platform has not confirmed. */
export function hasPending(outputs: Readonly<Record<string, unknown>>): boolean {
  return Object.keys(pendingOf(outputs)).length > 0;
}

/** What the next writes do with the pending work. */
export interface PendingResolution {
  /** deviceId → keys to send again (confirmed not performed, or a TSL call the device does not show). */
  readonly resend: Map<string, string[]>;
  /** Devices whose lost TSL call is sent again although it may exist (the user is warned). */
  readonly resentAfterUnknown: string[];
  /** Devices whose lost TSL call their configuration shows applied: nothing is sent again. */
  readonly confirmed: string[];
  /** Devices whose lost PROFILE call is not sent again: their entries stay until `version` changes. */
  readonly held: PendingWork;
}

/** The declaration a pending entry is weighed against. */
export interface PendingContext {
  readonly deviceIds: readonly string[];
  /** Declared keys: TSL property ids, or PROFILE keys. */
  readonly keys: readonly string[];
  readonly type: "TSL" | "PROFILE";
  /** The values the lost call carried (the previous declaration), for TSL confirmation. */
  readonly sentValues: Readonly<Record<string, unknown>>;
  /** True when the `version` (or the PROFILE values) changed since: everything is sent anew. */
  readonly superseded: boolean;
}

/**
 * Decides, per device, what becomes of its pending work. Devices no longer declared and keys no
 * longer declared are dropped (resetOnDelete handles them as released). A call that was definitely
 * not performed is sent again. A lost TSL call is confirmed when the device now shows every value it
 * carried and at least one of them was a change; otherwise it is sent again (with a warning). A lost
 * PROFILE call is never sent again unless the declaration changed (a new `version`).
 */
export function resolvePending(
  pending: PendingWork,
  context: PendingContext,
  current: CurrentConfig | undefined,
): PendingResolution {
  const resolution: PendingResolution = {
    resend: new Map(),
    resentAfterUnknown: [],
    confirmed: [],
    held: {},
  };
  const declared = new Set(context.keys);
  for (const deviceId of context.deviceIds) {
    const entry = pending[deviceId];
    if (!entry) continue;
    const keys = entry.keys.filter((key) => declared.has(key));
    if (keys.length === 0) continue;
    if (!entry.unknown) {
      resolution.resend.set(deviceId, keys);
    } else if (context.type === "PROFILE") {
      if (!context.superseded) resolution.held[deviceId] = { keys, unknown: entry.unknown };
    } else if (context.superseded) {
      // A new `version` sends every value to every device anyway.
      resolution.resend.set(deviceId, keys);
    } else if (confirmedOnDevice(keys, entry.unknown, context.sentValues, current?.get(deviceId))) {
      resolution.confirmed.push(deviceId);
    } else {
      resolution.resend.set(deviceId, keys);
      resolution.resentAfterUnknown.push(deviceId);
    }
  }
  return resolution;
}

function confirmedOnDevice(
  keys: readonly string[],
  call: UnknownCall,
  sent: Readonly<Record<string, unknown>>,
  reported: Readonly<Record<string, unknown>> | undefined,
): boolean {
  if (!call.visible || reported === undefined) return false;
  const values = Object.fromEntries(keys.filter((k) => Object.hasOwn(sent, k)).map((k) => [k, sent[k]]));
  return Object.keys(values).length === keys.length && Object.keys(unapplied(values, reported)).length === 0;
}
