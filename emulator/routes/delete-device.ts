import type { FastifyRequest } from "fastify";
import type { EmulatorContext } from "../context";
import { deviceFromPath } from "../devices/device-lookup";
import type { PlatformRoute } from "./platform-route";

/** `DELETE /devices/{deviceId}`: Delete a Device; `data` is null, 404 when unknown. */
export const deleteDeviceRoute: PlatformRoute = {
  method: "DELETE",
  url: "/devices/:deviceId",
  run(ctx: EmulatorContext, request: FastifyRequest) {
    ctx.store.deleteDevice(deviceFromPath(ctx, request).deviceId);
    return null;
  },
};
