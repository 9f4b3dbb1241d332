/**
 * Where the emulator's state changes become webhook events. Each function does nothing when the
 * emulator runs without webhooks, and never blocks or fails the caller: the event is only queued.
 */
import type { PlatformScope } from "../state/platform-scope";
import type { PropertyMap, TaskRecord } from "../state/types";
import type { WebhookDispatcher } from "./delivery-queue";
import { deviceDataEvent, taskDataEvent, webhookTestEvent, type WebhookEvent } from "./webhook-events";

/** What queues an event: the platform state, the clock, and the deliveries (none without webhooks). */
export interface WebhookScope extends PlatformScope {
  readonly webhooks: WebhookDispatcher | undefined;
}

/**
 * A device reported properties (`values`, keyed by TSL property id) at `atMs` (emulator clock):
 * queues a `DEVICE_DATA` event. Nothing when there are no values or the device is gone.
 */
export function emitDeviceData(ctx: WebhookScope, deviceId: string, values: PropertyMap, atMs: number): void {
  const device = ctx.store.devices.get(deviceId);
  if (!ctx.webhooks || !device || Object.keys(values).length === 0) return;
  ctx.webhooks.enqueue(deviceDataEvent(device, structuredClone(values), atMs));
}

/** A configuration task finished (SUCCEEDED or FAILED): queues a `TASK_DATA` event. */
export function emitTaskData(ctx: WebhookScope, task: TaskRecord): void {
  if (!ctx.webhooks || task.status === "PENDING") return;
  const deviceExists = ctx.store.deviceInApplication(task.deviceId, task.applicationId) !== undefined;
  ctx.webhooks.enqueue(
    taskDataEvent(structuredClone(task), deviceExists, task.finishedAt ?? ctx.clock.now()),
  );
}

/** Queues a `WEBHOOK_TEST` event (the control API's test call); undefined when webhooks are off. */
export function emitWebhookTest(ctx: WebhookScope): WebhookEvent | undefined {
  if (!ctx.webhooks) return undefined;
  const event = webhookTestEvent(ctx.clock.now());
  ctx.webhooks.enqueue(event);
  return event;
}
