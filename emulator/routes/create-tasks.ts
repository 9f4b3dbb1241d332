import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { EmulatorContext } from "../context";
import { requireDevice } from "../devices/device-lookup";
import { invalidParameter } from "../http/emulator-error";
import { DIGITS } from "../http/ids";
import { applicationOf } from "../http/request-context";
import { parseWith } from "../http/validation";
import type { DeviceRecord, PropertyMap, PropertyValue, TaskConfig } from "../state/types";
import { checkForDevice, propertiesSchema } from "./patch-properties";
import type { PlatformRoute } from "./platform-route";

/** Most devices one Create Configuration Tasks call accepts. */
export const MAX_DEVICES_PER_TASK = 500;

const tslConfigSchema = z.object({
  version: z.string().optional(),
  type: z.string().optional(),
  properties: propertiesSchema,
});

const profileConfigSchema = z.object({
  version: z.string().optional(),
  values: z
    .array(
      z.object({
        key: z.string().min(1, { error: "key must not be empty" }),
        value: z.custom<PropertyValue>((v) => v !== undefined && v !== null, { error: "value is required" }),
      }),
    )
    .min(1, { error: "name at least one value" }),
});

const taskSchema = z.object({
  type: z.enum(["TSL", "PROFILE"], { error: "type is TSL or PROFILE" }),
  deviceIds: z.unknown(),
  config: z.record(z.string(), z.unknown(), { error: "config must be an object" }),
});

/**
 * `deviceIds` as documented: an array of ids (strings of digits or numbers), or one string with ids
 * separated by commas or semicolons (a lone number is taken as one id). Between 1 and 500 distinct ids.
 */
export function parseDeviceIds(raw: unknown): string[] {
  const parts =
    typeof raw === "string"
      ? raw
          .split(/[,;]/)
          .map((s) => s.trim())
          .filter((s) => s !== "")
      : typeof raw === "number" || typeof raw === "bigint"
        ? [raw]
        : raw;
  if (!Array.isArray(parts))
    throw invalidParameter("deviceIds must be an array of ids or a comma/semicolon separated string");
  const ids = parts.map((id: unknown) => {
    const text =
      typeof id === "string"
        ? id.trim()
        : typeof id === "number" || typeof id === "bigint"
          ? id.toString()
          : "";
    if (!DIGITS.test(text))
      throw invalidParameter(`deviceIds: ${JSON.stringify(String(id))} is not a deviceId`);
    return text;
  });
  if (ids.length === 0) throw invalidParameter("deviceIds must name at least one device");
  if (ids.length > MAX_DEVICES_PER_TASK) {
    throw invalidParameter(`deviceIds: ${ids.length} devices, at most ${MAX_DEVICES_PER_TASK} per call`);
  }
  if (new Set(ids).size !== ids.length) throw invalidParameter("deviceIds must not repeat");
  return ids;
}

function parseConfig(type: "TSL" | "PROFILE", config: unknown, devices: DeviceRecord[]): TaskConfig {
  if (type === "PROFILE") return parseWith(profileConfigSchema, config, "PROFILE config");
  const parsed = parseWith(tslConfigSchema, config, "TSL config");
  for (const device of devices) checkForDevice(device, parsed.properties);
  return { ...parsed, properties: parsed.properties as PropertyMap };
}

/**
 * `POST /tasks`: Create Configuration Tasks, one task per device. Everything is checked before any
 * task exists (every device in this application, TSL config valid for each device's model); each task
 * applies shortly afterwards (see TaskRunner).
 */
export const createTasksRoute: PlatformRoute = {
  method: "POST",
  url: "/tasks",
  run(ctx: EmulatorContext, request: FastifyRequest) {
    const body = parseWith(taskSchema, request.body, "Create Configuration Tasks body");
    const deviceIds = parseDeviceIds(body.deviceIds);
    const devices = deviceIds.map((id) => requireDevice(ctx, request, id));
    const config = parseConfig(body.type, body.config, devices);
    const applicationId = applicationOf(request);
    const relations = devices.map((device) => {
      const task = ctx.tasks.start({
        taskId: ctx.store.taskIds.issue(),
        deviceId: device.deviceId,
        applicationId,
        type: body.type,
        config,
      });
      return { deviceId: ctx.renderId(task.deviceId), taskId: ctx.renderId(task.taskId) };
    });
    return { deviceTaskRelations: relations };
  },
};
