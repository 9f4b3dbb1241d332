import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { EmulatorContext } from "../context";
import { createDevice } from "../devices/device-factory";
import { applyTemplate, templateProperties } from "../devices/auto-provision";
import { deviceResultView } from "../devices/device-views";
import { EmulatorError } from "../http/emulator-error";
import { ErrCode } from "../http/err-codes";
import { applicationOf } from "../http/request-context";
import { parseWith } from "../http/validation";
import { checkForDevice } from "./patch-properties";
import type { PlatformRoute } from "./platform-route";
import { nameSchema, serialSchema, tagsSchema } from "./schemas";

const addDeviceSchema = z.object({
  snDevEUI: serialSchema,
  name: nameSchema,
  description: z.string().optional(),
  project: z.string().optional(),
  tag: tagsSchema.optional(),
  autoProvision: z.boolean({ error: "expected true or false" }).optional(),
  /** v1: the profile template as a JSON object. */
  config: z.unknown().optional(),
  /** v1.0: the profile template as JSON text. */
  profile: z.string({ error: "expected the profile template as JSON text" }).optional(),
});

/** Refuses a serial number that is already a device, or that holds an RPS record (409). */
function assertAddable(ctx: EmulatorContext, sn: string, applicationId: string): void {
  const existing = ctx.store.deviceBySerial(sn);
  if (existing?.applicationId === applicationId) {
    throw new EmulatorError(
      409,
      ErrCode.DeviceAlreadyExists,
      `device ${sn} is already in this application (deviceId ${existing.deviceId})`,
    );
  }
  if (existing) {
    throw new EmulatorError(
      409,
      ErrCode.DeviceInOtherApplication,
      `device ${sn} belongs to another application`,
    );
  }
  if (ctx.store.rpsRecord(sn)) {
    throw new EmulatorError(
      409,
      ErrCode.RpsRecordExists,
      `device ${sn} has an RPS record; delete the RPS record before adding the device`,
    );
  }
}

/**
 * `POST /devices`: Add a Device, with auto-provisioning when `autoProvision` is true (see
 * devices/auto-provision.ts); `autopStatus` DISABLE otherwise.
 */
export const addDeviceRoute: PlatformRoute = {
  method: "POST",
  url: "/devices",
  run(ctx: EmulatorContext, request: FastifyRequest) {
    const body = parseWith(addDeviceSchema, request.body, "Add a Device body");
    const applicationId = applicationOf(request);
    assertAddable(ctx, body.snDevEUI, applicationId);
    const template = templateProperties(body);
    const device = createDevice({
      deviceId: ctx.store.deviceIds.issue(),
      applicationId,
      sn: body.snDevEUI,
      name: body.name,
      description: body.description,
      project: body.project,
      tag: body.tag ?? [],
      now: ctx.clock.now(),
    });
    if (!template) {
      device.autopStatus = "DISABLE";
      ctx.store.insertDevice(device);
      return deviceResultView(device, ctx);
    }
    // Checked before the device exists on the platform: a bad template adds nothing.
    const values = checkForDevice(device, template);
    device.autopStatus = "WAITING";
    device.pendingTemplate = values;
    ctx.store.insertDevice(device);
    if (!ctx.tasks.isHolding()) applyTemplate(ctx.store, device, values, ctx.clock.now());
    return deviceResultView(device, ctx);
  },
};
