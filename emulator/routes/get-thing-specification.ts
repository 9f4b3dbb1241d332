import type { FastifyRequest } from "fastify";
import { modelByKey, tslOf } from "../catalogue";
import type { EmulatorContext } from "../context";
import { deviceFromPath } from "../devices/device-lookup";
import type { PlatformRoute } from "./platform-route";

/** `GET /devices/{deviceId}/thing-specification`: the TSL model at the device's selected version. */
export const getThingSpecificationRoute: PlatformRoute = {
  method: "GET",
  url: "/devices/:deviceId/thing-specification",
  run(ctx: EmulatorContext, request: FastifyRequest) {
    const device = deviceFromPath(ctx, request);
    return tslOf(modelByKey(device.modelKey), device.tslVersion);
  },
};
