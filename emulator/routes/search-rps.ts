import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { EmulatorContext } from "../context";
import { applicationOf } from "../http/request-context";
import { parseWith } from "../http/validation";
import { pageOf, sortItems } from "../search/sorting";
import type { RpsRecord } from "../state/types";
import type { PlatformRoute } from "./platform-route";
import { pagingShape, sortsSchema } from "./schemas";

const rpsSearchSchema = z.object({ ...pagingShape, sorts: sortsSchema(["sn", "profileUrl"]) });

function keyOf(record: RpsRecord, property: string): string | undefined {
  return property === "sn"
    ? record.sn.toUpperCase()
    : property === "profileUrl"
      ? record.profileUrl
      : undefined;
}

/** `POST /rps/search`: Query Profile URL List of the caller's application; creation order by default. */
export const searchRpsRoute: PlatformRoute = {
  method: "POST",
  url: "/rps/search",
  run(ctx: EmulatorContext, request: FastifyRequest) {
    const search = parseWith(rpsSearchSchema, request.body, "Query Profile URL List body");
    const applicationId = applicationOf(request);
    const records = [...ctx.store.rpsRecords.values()].filter((r) => r.applicationId === applicationId);
    const sorted = sortItems(records, search.sorts ?? [], keyOf, (a, b) => a.createdAt - b.createdAt);
    const page = pageOf(sorted, search.pageNumber, Math.min(search.pageSize, ctx.options.maxPageSize));
    return { ...page, content: page.content.map((r) => ({ sn: r.sn, profileUrl: r.profileUrl })) };
  },
};
