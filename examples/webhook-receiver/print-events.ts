/** Lines a person reads: one per configuration task result, one per configured item under it. */
import { isDeviceDataEvent, isTaskDataEvent, type WebhookEvent } from "pulumi-devplatform/sdk";

/** A value as JSON (integers beyond 2^53 arrive from the SDK as strings of their exact digits). */
function show(value: unknown): string {
  return value === undefined ? "-" : JSON.stringify(value);
}

/** The lines one event prints. */
export function describeEvent(event: WebhookEvent): string[] {
  if (isTaskDataEvent(event)) {
    const { info, type } = event.data;
    const head = `task ${info.taskId} device ${info.deviceId} ${type} ${info.status}`;
    const lines = [info.errCode ? `${head} errCode=${info.errCode}` : head];
    for (const item of info.subcommand) lines.push(`  ${item.key} ${item.status} ${show(item.value)}`);
    return lines;
  }
  if (isDeviceDataEvent(event)) {
    const { deviceProfile, type, payload } = event.data;
    return [`device ${deviceProfile.deviceId ?? deviceProfile.sn ?? "?"} reported ${type} ${show(payload)}`];
  }
  return [`${event.eventType} ${show(event.data)}`];
}
