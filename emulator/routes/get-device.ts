import type { FastifyRequest } from "fastify";
import type { EmulatorContext } from "../context";
import { deviceFromPath } from "../devices/device-lookup";
import { deviceQueryView } from "../devices/device-views";
import type { PlatformRoute } from "./platform-route";

/** `GET /devices/{deviceId}`: Query a Specific Device. */
export const getDeviceRoute: PlatformRoute = {
  method: "GET",
  url: "/devices/:deviceId",
  run(ctx: EmulatorContext, request: FastifyRequest) {
    return deviceQueryView(deviceFromPath(ctx, request), ctx);
  },
};
