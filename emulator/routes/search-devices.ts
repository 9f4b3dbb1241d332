import type { FastifyRequest } from "fastify";
import type { EmulatorContext } from "../context";
import { deviceSearchView } from "../devices/device-views";
import { applicationOf } from "../http/request-context";
import { parseWith } from "../http/validation";
import { deviceSearchSchema, searchDevices } from "../search/device-search";
import { pageOf } from "../search/sorting";
import type { PlatformRoute } from "./platform-route";

/** `POST /devices/search`: Search Specific Devices of the caller's application, paged from 1
 * (at most `maxPageSize` a page, whatever was asked). */
export const searchDevicesRoute: PlatformRoute = {
  method: "POST",
  url: "/devices/search",
  run(ctx: EmulatorContext, request: FastifyRequest) {
    const search = parseWith(deviceSearchSchema, request.body, "Search Specific Devices body");
    const found = searchDevices(ctx.store.devicesOf(applicationOf(request)), search);
    const page = pageOf(found, search.pageNumber, Math.min(search.pageSize, ctx.options.maxPageSize));
    return { ...page, content: page.content.map((d) => deviceSearchView(d, ctx)) };
  },
};
