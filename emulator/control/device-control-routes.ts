import type { FastifyInstance, FastifyRequest } from "fastify";
import { modelByKey, tslOf } from "../catalogue";
import type { EmulatorContext } from "../context";
import { insertSeededDevice } from "./seed-device";
import { deviceIdParam } from "../devices/device-lookup";
import { deviceNotFound, EmulatorError, invalidParameter } from "../http/emulator-error";
import { sendSuccess } from "../http/envelope";
import { ErrCode } from "../http/err-codes";
import { parseWith } from "../http/validation";
import type { DeviceRecord } from "../state/types";
import { mergeInto } from "../tsl/apply-properties";
import { checkProperties } from "../tsl/validate-properties";
import { deviceChangeSchema, seedDeviceSchema } from "./control-schemas";
import { controlDevice } from "./control-views";
import { emitDeviceData } from "../webhooks/emit";

function anyDevice(ctx: EmulatorContext, request: FastifyRequest): DeviceRecord {
  const deviceId = deviceIdParam(request);
  const device = ctx.store.devices.get(deviceId);
  if (!device) throw deviceNotFound(deviceId);
  return device;
}

type DeviceChange = ReturnType<typeof deviceChangeSchema.parse>;

function applyChange(ctx: EmulatorContext, device: DeviceRecord, change: DeviceChange): void {
  const tsl = tslOf(modelByKey(device.modelKey), device.tslVersion);
  const checked = change.properties
    ? checkProperties(tsl, change.properties, { ignoreAccessMode: true })
    : undefined;
  if (checked && checked.problems.length > 0) throw invalidParameter(checked.problems.join("; "));
  ctx.store.updateDevice(device, (d) => {
    if (change.name !== undefined) d.name = change.name;
    if (change.description === null) delete d.description;
    else if (change.description !== undefined) d.description = change.description;
    if (change.project === null) delete d.project;
    else if (change.project !== undefined) d.project = change.project;
    if (change.tag !== undefined) d.tag = change.tag;
    if (change.connectStatus !== undefined) d.connectStatus = change.connectStatus;
    if (change.licenseStatus !== undefined) d.licenseStatus = change.licenseStatus;
    if (change.rpsStatus !== undefined) d.rpsEnabled = change.rpsStatus;
    if (change.electricity === null) delete d.electricity;
    else if (change.electricity !== undefined) d.electricity = change.electricity;
    if (checked) mergeInto(d.properties, checked.values);
    if (change.sendAs) d.sendAs = mergedSendAs(d.sendAs, change.sendAs);
    d.lastUpdateTime = ctx.clock.now();
  });
  if (checked) emitDeviceData(ctx, device.deviceId, checked.values, device.lastUpdateTime);
}

/** `sendAs` after a change: a string sets a field's verbatim value, null removes it. */
function mergedSendAs(
  current: DeviceRecord["sendAs"],
  change: NonNullable<DeviceChange["sendAs"]>,
): DeviceRecord["sendAs"] {
  const merged = Object.entries({ ...current, ...change }).filter(
    (entry): entry is [string, string] => typeof entry[1] === "string",
  );
  return merged.length > 0 ? Object.fromEntries(merged) : undefined;
}

/** Out-of-band device changes: what drift looks like to a client. Devices of any application. */
export function registerDeviceControlRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.patch("/__emulator/devices/:deviceId", async (request, reply) => {
    const device = anyDevice(ctx, request);
    const change = parseWith(deviceChangeSchema, request.body, "device change");
    applyChange(ctx, device, change);
    return sendSuccess(request, reply, controlDevice(device));
  });

  app.delete("/__emulator/devices/:deviceId", async (request, reply) => {
    ctx.store.deleteDevice(anyDevice(ctx, request).deviceId);
    return sendSuccess(request, reply, null);
  });

  app.post("/__emulator/devices", async (request, reply) => {
    const seed = parseWith(seedDeviceSchema, request.body, "seed device");
    const existing = ctx.store.deviceBySerial(seed.sn);
    if (existing) {
      throw new EmulatorError(
        409,
        ErrCode.DeviceAlreadyExists,
        `device ${seed.sn} exists (deviceId ${existing.deviceId})`,
      );
    }
    const device = insertSeededDevice(ctx, seed);
    return sendSuccess(request, reply, controlDevice(device));
  });
}
