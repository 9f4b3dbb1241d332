import type { FastifyInstance } from "fastify";
import type { EmulatorContext } from "../context";
import { authenticate } from "../hooks/authenticate";
import { sendSuccess } from "../http/envelope";
import { addDeviceRoute } from "./add-device";
import { createTasksRoute } from "./create-tasks";
import { deleteDeviceRoute } from "./delete-device";
import { deleteRpsRoute } from "./delete-rps";
import { getConfigRoute } from "./get-config";
import { getDeviceRoute } from "./get-device";
import { getThingSpecificationRoute } from "./get-thing-specification";
import { servicesCallRoute } from "./call-service";
import { propertiesHistoryRoute } from "./properties-history";
import { oauthTokenRoute } from "./oauth-token";
import { patchPropertiesRoute } from "./patch-properties";
import type { PlatformRoute } from "./platform-route";
import { searchDevicesRoute } from "./search-devices";
import { searchRpsRoute } from "./search-rps";
import { setRpsProfileRoute } from "./set-rps-profile";
import { updateDeviceRoute } from "./update-device";

/** Version segments that serve the same operations (platform-api.md, Versioning). */
export const API_VERSIONS = ["v1", "v1.0", "V1.0"] as const;

/** Operations under `/device/openapi/{version}`, all behind the access token. */
export const DEVICE_ROUTES: readonly PlatformRoute[] = [
  addDeviceRoute,
  searchDevicesRoute,
  getDeviceRoute,
  updateDeviceRoute,
  deleteDeviceRoute,
  getThingSpecificationRoute,
  patchPropertiesRoute,
  getConfigRoute,
  createTasksRoute,
  setRpsProfileRoute,
  searchRpsRoute,
  deleteRpsRoute,
  propertiesHistoryRoute,
  servicesCallRoute,
];

function mount(scope: FastifyInstance, ctx: EmulatorContext, route: PlatformRoute): void {
  scope.route({
    method: route.method,
    url: route.url,
    handler: async (request, reply) => sendSuccess(request, reply, (await route.run(ctx, request)) ?? null),
  });
}

/** The token endpoint at the root and the device operations under each version prefix. */
export function registerPlatformRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  mount(app, ctx, oauthTokenRoute);
  for (const version of API_VERSIONS) {
    void app.register(
      async (scope) => {
        scope.addHook("onRequest", authenticate(ctx));
        for (const route of DEVICE_ROUTES) mount(scope, ctx, route);
      },
      { prefix: `/device/openapi/${version}` },
    );
  }
}
