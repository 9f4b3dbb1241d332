/**
 * A local emulator of the device platform's HTTP API (platform-api.md), written from the document
 * alone: `createApp` builds the fastify app, `startEmulator` runs it on loopback, `EmulatorControl`
 * drives its `/__emulator/` control API, and the catalogue describes the device models it serves.
 */
export { contextOf, createApp } from "./app";
export * from "./catalogue";
export type { ControlDevice, EmulatorStateView } from "./control/control-views";
export type {
  DeviceChangeInput,
  QuotaChangeInput,
  SeedDeviceInput,
  SeedInput,
  SeedResult,
} from "./control/control-schemas";
export type { InterleaveDone, InterleaveInput, InterleaveView } from "./control/interleave";
export { EmulatorControl, EmulatorControlError, type WaitOptions } from "./control/emulator-control";
export type { HoldInput } from "./control/hold-routes";
export { HOLD_THENS, type HoldThen, type HoldView } from "./control/request-holds";
export type { CounterSnapshot } from "./counters";
export { DAY_MS, type QuotaUse, type QuotaView } from "./daily-quota";
export { FAULT_KINDS, type FaultConfig, type FaultConfigInput, type FaultKind } from "./faults/fault-config";
export { ErrCode } from "./http/err-codes";
export { parseJson, stringifyJson } from "./http/lossless-json";
export {
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
  DEFAULT_TASK_DELAY_MS,
  DEFAULT_TOKEN_TTL_SECONDS,
  type EmulatorOptions,
} from "./options";
export { MAX_DEVICES_PER_TASK } from "./routes/create-tasks";
export { API_VERSIONS } from "./routes/platform-routes";
export { MAX_PAGE_SIZE } from "./routes/schemas";
export { DEFAULT_APPLICATION_ID, DEFAULT_APPLICATION_NAME } from "./state/id-sequence";
export type {
  AutopStatus,
  DeviceRecord,
  PropertyMap,
  PropertyReportRecord,
  PropertyValue,
  RpsRecord,
  ServiceCallRecord,
  TaskRecord,
  TaskStatus,
} from "./state/types";
export { DEFAULT_WINDOW_MS as HISTORY_DEFAULT_WINDOW_MS } from "./reports/history-page";
export { DEFAULT_HISTORY_PAGE_SIZE } from "./routes/properties-history";
export { startEmulator, type RunningEmulator, type StartOptions } from "./start";
export type { DeliveryAttempt, DeliveryState, DeliveryView } from "./webhooks/delivery-queue";
export {
  NONCE_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  WEBHOOK_UUID_HEADER,
  webhookSignature,
} from "./webhooks/signing";
export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./webhooks/webhook-events";
export type { WebhookDeliveriesView } from "./webhooks/webhook-routes";
