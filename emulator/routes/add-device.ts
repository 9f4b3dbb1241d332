import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { EmulatorContext } from "../context";
import { createDevice } from "../devices/device-factory";
import { deviceResultView } from "../devices/device-views";
import { EmulatorError } from "../http/emulator-error";
import { ErrCode } from "../http/err-codes";
import { applicationOf } from "../http/request-context";
import { parseWith } from "../http/validation";
import type { PlatformRoute } from "./platform-route";
import { nameSchema, serialSchema, tagsSchema } from "./schemas";

const addDeviceSchema = z.object({
  snDevEUI: serialSchema,
  name: nameSchema,
  description: z.string().optional(),
  project: z.string().optional(),
  tag: tagsSchema.optional(),
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

/** `POST /devices`: Add a Device. */
export const addDeviceRoute: PlatformRoute = {
  method: "POST",
  url: "/devices",
  run(ctx: EmulatorContext, request: FastifyRequest) {
    const body = parseWith(addDeviceSchema, request.body, "Add a Device body");
    const applicationId = applicationOf(request);
    assertAddable(ctx, body.snDevEUI, applicationId);
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
    ctx.store.insertDevice(device);
    return deviceResultView(device, ctx);
  },
};
