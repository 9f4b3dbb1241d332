import type { FastifyRequest } from "fastify";
import { modelByKey, tslOf } from "../catalogue";
import type { EmulatorContext } from "../context";
import { deviceFromPath } from "../devices/device-lookup";
import type { PropertyMap } from "../state/types";
import { isWritable } from "../tsl/default-values";
import type { PlatformRoute } from "./platform-route";

/**
 * `GET /devices/{deviceId}/config`: Getting the Configuration of a Specific Device →
 * `{ properties: { … } }`, the current values of the writable (W, RW) properties, STRUCTs keyed by
 * their children's full ids.
 */
export const getConfigRoute: PlatformRoute = {
  method: "GET",
  url: "/devices/:deviceId/config",
  run(ctx: EmulatorContext, request: FastifyRequest) {
    const device = deviceFromPath(ctx, request);
    const tsl = tslOf(modelByKey(device.modelKey), device.tslVersion);
    const properties: PropertyMap = {};
    for (const property of tsl.properties) {
      const value = device.properties[property.id];
      if (value !== undefined && property.dataSpec.parentId === undefined && isWritable(property)) {
        properties[property.id] = value;
      }
    }
    return { properties };
  },
};
