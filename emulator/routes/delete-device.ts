import type { FastifyRequest } from "fastify";
import type { EmulatorContext } from "../context";
import { deviceFromPath } from "../devices/device-lookup";
import type { PlatformRoute } from "./platform-route";

/**
 * `DELETE /devices/{deviceId}`: Delete a Device; `data` is the deleted device's serial number, as the
 * platform's reference answers; 404 `device_not_found` when unknown.
 */
export const deleteDeviceRoute: PlatformRoute = {
  method: "DELETE",
  url: "/devices/:deviceId",
  run(ctx: EmulatorContext, request: FastifyRequest) {
    const device = deviceFromPath(ctx, request);
    ctx.store.deleteDevice(device.deviceId);
    return device.sn;
  },
};
