/**
 * The events the emulator's webhooks carry, built as the platform's reference shows them: an event
 * is `{ eventId, eventCreatedTime (seconds), eventVersion, eventType, data }` and a delivery's body is
 * a JSON array of events. Ids in `TASK_DATA` are written as JSON numbers (exact above 2^53), as the
 * platform's own integration code reads them; `DEVICE_DATA`'s `deviceProfile.deviceId` is a string,
 * as the reference's example shows it.
 */
import { randomUUID } from "node:crypto";
import { modelByKey } from "../catalogue";
import { rawNumber, type RawJson } from "../http/lossless-json";
import type { DeviceRecord, PropertyMap, PropertyValue, TaskRecord } from "../state/types";

/** The event types of the reference (the emulator sends the first three). */
export const WEBHOOK_EVENT_TYPES = ["DEVICE_DATA", "TASK_DATA", "WEBHOOK_TEST", "SYSTEM_MESSAGES"] as const;
/** One of {@link WEBHOOK_EVENT_TYPES}. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The `eventVersion` the emulator writes (the reference's examples all say "1.0"). */
export const EVENT_VERSION = "1.0";

/** The text of a `WEBHOOK_TEST` event's `data`, as the reference's example has it. */
export const WEBHOOK_TEST_TEXT = "Test Milesight Webhook Successfully.";

/** One event as it is serialised (with the emulator's lossless JSON writer). */
export interface WebhookEvent {
  eventId: string;
  /** Seconds since the epoch, on the emulator's clock. */
  eventCreatedTime: number;
  eventVersion: string;
  eventType: WebhookEventType;
  data: unknown;
}

/** One configuration item of a `TASK_DATA` event. */
export interface TaskSubcommand {
  key: string;
  status: "SUCCESS" | "FAILED";
  value: PropertyValue;
}

function event(eventType: WebhookEventType, atMs: number, data: unknown): WebhookEvent {
  return {
    eventId: randomUUID(),
    eventCreatedTime: Math.floor(atMs / 1000),
    eventVersion: EVENT_VERSION,
    eventType,
    data,
  };
}

/** What a task was asked to write, keyed by TSL property id or profile key. */
function requested(task: TaskRecord): PropertyMap {
  if (task.type === "PROFILE") {
    return Object.fromEntries((task.config.values ?? []).map(({ key, value }) => [key, value]));
  }
  return task.config.properties ?? {};
}

/** One subcommand per item the task was asked to write: SUCCESS when it was applied. */
export function subcommandsOf(task: TaskRecord): TaskSubcommand[] {
  const applied = task.applied ?? {};
  return Object.entries(requested(task)).map(([key, value]) => ({
    key,
    status: key in applied ? "SUCCESS" : "FAILED",
    value,
  }));
}

/**
 * `TASK_DATA` for a finished task. `status` is `SUCCESS` or `FAILED` (the emulator's task states
 * SUCCEEDED and FAILED); `errCode` is null on success, else `device_not_found` when the device was
 * gone or `invalid_parameter` when the configuration no longer fitted its model.
 */
export function taskDataEvent(task: TaskRecord, deviceExists: boolean, atMs: number): WebhookEvent {
  const failed = task.status === "FAILED";
  const info: Record<string, RawJson | string | null | TaskSubcommand[]> = {
    taskId: rawNumber(task.taskId),
    deviceId: rawNumber(task.deviceId),
    status: failed ? "FAILED" : "SUCCESS",
    errCode: failed ? (deviceExists ? "invalid_parameter" : "device_not_found") : null,
    subcommand: subcommandsOf(task),
  };
  return event("TASK_DATA", atMs, { info, type: "CONFIG" });
}

/**
 * `DEVICE_DATA` for a property report: `deviceProfile` (deviceId, sn, devEUI, name, model), `type`
 * `PROPERTY`, `tslID` empty (the report may hold several properties) and `payload` the reported
 * values keyed by TSL property id.
 */
export function deviceDataEvent(device: DeviceRecord, values: PropertyMap, atMs: number): WebhookEvent {
  const deviceProfile: Record<string, string> = {
    deviceId: device.deviceId,
    sn: device.sn,
    name: device.name,
    model: modelByKey(device.modelKey).model,
  };
  if (device.devEUI !== undefined) deviceProfile.devEUI = device.devEUI;
  return event("DEVICE_DATA", atMs, { deviceProfile, type: "PROPERTY", tslID: "", payload: values });
}

/** `WEBHOOK_TEST`, as the platform sends it when its Test button is clicked. */
export function webhookTestEvent(atMs: number): WebhookEvent {
  return event("WEBHOOK_TEST", atMs, WEBHOOK_TEST_TEXT);
}
