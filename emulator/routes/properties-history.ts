import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { EmulatorContext } from "../context";
import { deviceFromPath } from "../devices/device-lookup";
import { parseWith } from "../http/validation";
import { historyPage, historyWindow } from "../reports/history-page";
import { reportsOf } from "../reports/property-reports";
import type { PlatformRoute } from "./platform-route";
import { MAX_PAGE_SIZE } from "./schemas";

/** Records per page when the query gives no `pageSize` (not in the reference: the emulator's choice). */
export const DEFAULT_HISTORY_PAGE_SIZE = 100;

const millis = z
  .string()
  .regex(/^\d{1,15}$/, { error: "expected milliseconds since the epoch (digits)" })
  .transform(Number);

const historyQuerySchema = z.object({
  startTime: millis.optional(),
  endTime: millis.optional(),
  pageSize: z
    .string()
    .regex(/^\d+$/, { error: "expected an integer" })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, { error: "must be at least 1" })
        .max(MAX_PAGE_SIZE, { error: `must be at most ${MAX_PAGE_SIZE}` }),
    )
    .optional(),
  pageKey: z.string().min(1, { error: "must not be empty" }).optional(),
});

/**
 * `GET /devices/{deviceId}/properties/history`: Query the Historical Data of Properties Reports.
 * `data: { list: [{ ts, properties }], pageSize, nextPageKey? }`, oldest first; `nextPageKey` only
 * when more reports follow in the window. Times are milliseconds since the epoch on every version.
 */
export const propertiesHistoryRoute: PlatformRoute = {
  method: "GET",
  url: "/devices/:deviceId/properties/history",
  run(ctx: EmulatorContext, request: FastifyRequest) {
    const device = deviceFromPath(ctx, request);
    const query = parseWith(historyQuerySchema, request.query, "history query");
    const window = historyWindow(ctx.clock.now(), query.startTime, query.endTime);
    const pageSize = query.pageSize ?? DEFAULT_HISTORY_PAGE_SIZE;
    const { list, nextPageKey } = historyPage(
      reportsOf(ctx.store, device.deviceId),
      window,
      pageSize,
      query.pageKey,
    );
    return {
      list: list.map((r) => ({ ts: r.ts, properties: r.properties })),
      pageSize,
      ...(nextPageKey === undefined ? {} : { nextPageKey }),
    };
  },
};
