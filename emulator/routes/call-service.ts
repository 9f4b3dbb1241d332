import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { modelByKey, tslOf } from "../catalogue";
import type { EmulatorContext } from "../context";
import { deviceFromPath } from "../devices/device-lookup";
import { invalidParameter } from "../http/emulator-error";
import { NO_DATA } from "../http/envelope";
import { parseWith } from "../http/validation";
import { checkServiceCall } from "../services/check-service-call";
import type { PlatformRoute } from "./platform-route";

const callSchema = z.object({
  serviceId: z.string({ error: "expected a string" }).min(1, { error: "must not be empty" }),
  inputs: z.unknown().optional(),
});

/**
 * `POST /devices/{deviceId}/services/call`: Invoke Device Services Asynchronously. Body
 * `{ serviceId, inputs }`, checked against the device's TSL model (unknown service, unknown input,
 * a value that breaks its rule, a missing required input: 400 `invalid_parameter`, nothing
 * recorded); an accepted call is recorded with its `requestId` and answered with `status` and
 * `requestId` only — no `data`, as the reference shows it.
 */
export const servicesCallRoute: PlatformRoute = {
  method: "POST",
  url: "/devices/:deviceId/services/call",
  run(ctx: EmulatorContext, request: FastifyRequest) {
    const device = deviceFromPath(ctx, request);
    const { serviceId, inputs } = parseWith(callSchema, request.body, "Invoke Device Services body");
    const tsl = tslOf(modelByKey(device.modelKey), device.tslVersion);
    const checked = checkServiceCall(tsl, serviceId, inputs ?? {});
    if (checked.problems.length > 0) {
      throw invalidParameter(
        `service call does not fit the TSL model ${tsl.version} of device ${device.deviceId}: ${checked.problems.join("; ")}`,
      );
    }
    ctx.store.addServiceCall({
      requestId: request.id,
      deviceId: device.deviceId,
      applicationId: device.applicationId,
      serviceId,
      inputs: checked.inputs,
      calledAt: ctx.clock.now(),
    });
    return NO_DATA;
  },
};
