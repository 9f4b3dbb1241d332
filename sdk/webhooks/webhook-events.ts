/**
 * Schemas of the platform's webhook events: `{ eventId, eventCreatedTime, eventVersion, eventType,
 * data }`, with `data` per event type. Read tolerantly like every response: event types, statuses
 * and data types are open enums; `eventID` (as the reference's examples spell it) is read as
 * `eventId`; `eventCreatedTime` may be a number or a string of digits (seconds). Ids arrive as
 * strings of digits whatever their size (the body is parsed losslessly before these schemas run).
 */
import { z } from "zod";
import type { JsonValue } from "../lossless-json";
import { idSchema, numberLike, opt, stringLike } from "../schemas/common";
import { openEnum, type OpenEnum } from "../schemas/open-enum";

/** Event types of the reference. */
export const WEBHOOK_EVENT_TYPES = ["DEVICE_DATA", "TASK_DATA", "WEBHOOK_TEST", "SYSTEM_MESSAGES"] as const;
/** Statuses of a task result and of its subcommands. */
export const TASK_RESULT_STATUSES = ["SUCCESS", "FAILED"] as const;
/** `TASK_DATA` task types. */
export const TASK_DATA_TYPES = ["CONFIG", "OTA"] as const;
/** `DEVICE_DATA` report types. */
export const DEVICE_DATA_TYPES = ["PROPERTY", "EVENT", "SERVICE", "ONLINE", "OFFLINE"] as const;

const jsonValue = z.custom<JsonValue>((value) => value !== undefined, "expected a JSON value");

const eventBaseSchema = z.preprocess(
  (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
    const record = value as Record<string, unknown>;
    return "eventId" in record || !("eventID" in record) ? record : { ...record, eventId: record.eventID };
  },
  z.object({
    eventId: z.string().min(1),
    eventCreatedTime: numberLike.pipe(z.number().int().nonnegative()),
    eventVersion: stringLike,
    eventType: openEnum(WEBHOOK_EVENT_TYPES),
    data: jsonValue.optional(),
  }),
);

const subcommandSchema = z.object({
  key: z.string(),
  status: openEnum(TASK_RESULT_STATUSES),
  value: opt(jsonValue),
});

/** `data` of a `TASK_DATA` event: a task's result with one subcommand per configured item. */
export const taskDataSchema = z.object({
  info: z.object({
    taskId: idSchema,
    deviceId: idSchema,
    status: openEnum(TASK_RESULT_STATUSES),
    errCode: opt(stringLike),
    subcommand: opt(z.array(subcommandSchema)).transform((list) => list ?? []),
  }),
  type: openEnum(TASK_DATA_TYPES),
});

/** `data` of a `DEVICE_DATA` event: what a device reported, and which device. */
export const deviceDataSchema = z.object({
  deviceProfile: z.object({
    deviceId: opt(idSchema),
    sn: opt(stringLike),
    devEUI: opt(stringLike),
    name: opt(stringLike),
    model: opt(stringLike),
  }),
  type: openEnum(DEVICE_DATA_TYPES),
  tslID: opt(stringLike),
  payload: opt(z.record(z.string(), jsonValue)).transform((payload) => payload ?? {}),
});

/** A task result. */
export type TaskData = z.output<typeof taskDataSchema>;
/** A device report. */
export type DeviceData = z.output<typeof deviceDataSchema>;

/** What every event carries. */
export interface WebhookEventBase {
  readonly eventId: string;
  /** Seconds since the epoch. */
  readonly eventCreatedTime: number;
  readonly eventVersion: string;
}

/** A configuration or OTA task finished. */
export interface TaskDataEvent extends WebhookEventBase {
  readonly eventType: "TASK_DATA";
  readonly data: TaskData;
}

/** A device reported data. */
export interface DeviceDataEvent extends WebhookEventBase {
  readonly eventType: "DEVICE_DATA";
  readonly data: DeviceData;
}

/** The platform's Test button (`data` is a sentence). */
export interface WebhookTestEvent extends WebhookEventBase {
  readonly eventType: "WEBHOOK_TEST";
  readonly data: JsonValue | undefined;
}

/** `SYSTEM_MESSAGES`, or an event type the SDK does not know, with its data as sent. */
export interface OtherWebhookEvent extends WebhookEventBase {
  readonly eventType: Exclude<
    OpenEnum<(typeof WEBHOOK_EVENT_TYPES)[number]>,
    "TASK_DATA" | "DEVICE_DATA" | "WEBHOOK_TEST"
  >;
  readonly data: JsonValue | undefined;
}

/** One event of a verified delivery; narrow on `eventType`. */
export type WebhookEvent = TaskDataEvent | DeviceDataEvent | WebhookTestEvent | OtherWebhookEvent;

/** The first broken rule, naming its field under `prefix`, e.g. `data.info.deviceId: expected …`. */
function problem(error: z.ZodError, prefix: string[]): string {
  const issue = error.issues[0];
  const path = [...prefix, ...(issue?.path ?? []).map(String)];
  const message = issue?.message ?? "invalid";
  return path.length > 0 ? `${path.join(".")}: ${message}` : message;
}

/**
 * Parses one element of a delivery's array; throws a message naming the field that broke the rule.
 * @param index the element's position, for the message.
 */
export function parseWebhookEvent(value: unknown, index: number): WebhookEvent {
  const base = eventBaseSchema.safeParse(value);
  if (!base.success) throw new Error(`event ${index}: ${problem(base.error, [])}`);
  const { data, ...rest } = base.data;
  const typed = <T extends z.ZodType>(schema: T): z.output<T> => {
    const parsed = schema.safeParse(data);
    if (!parsed.success)
      throw new Error(`event ${index} (${rest.eventType}): ${problem(parsed.error, ["data"])}`);
    return parsed.data;
  };
  switch (rest.eventType) {
    case "TASK_DATA":
      return { ...rest, eventType: "TASK_DATA", data: typed(taskDataSchema) };
    case "DEVICE_DATA":
      return { ...rest, eventType: "DEVICE_DATA", data: typed(deviceDataSchema) };
    case "WEBHOOK_TEST":
      return { ...rest, eventType: "WEBHOOK_TEST", data };
    default:
      return { ...rest, eventType: rest.eventType, data };
  }
}

/*
 * An open enum's unknown values are strings, so `event.eventType === "TASK_DATA"` cannot narrow the
 * union by itself; these guards can, because parseWebhookEvent gives those types their typed data.
 */

/** Whether `event` is a `TASK_DATA` event (narrows `data` to {@link TaskData}). */
export function isTaskDataEvent(event: WebhookEvent): event is TaskDataEvent {
  return event.eventType === "TASK_DATA";
}

/** Whether `event` is a `DEVICE_DATA` event (narrows `data` to {@link DeviceData}). */
export function isDeviceDataEvent(event: WebhookEvent): event is DeviceDataEvent {
  return event.eventType === "DEVICE_DATA";
}

/** Whether `event` is a `WEBHOOK_TEST` event. */
export function isWebhookTestEvent(event: WebhookEvent): event is WebhookTestEvent {
  return event.eventType === "WEBHOOK_TEST";
}
