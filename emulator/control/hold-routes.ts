import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { EmulatorContext } from "../context";
import { EmulatorError } from "../http/emulator-error";
import { sendSuccess } from "../http/envelope";
import { ErrCode } from "../http/err-codes";
import { routeKeyOf } from "../http/route-key";
import { parseWith } from "../http/validation";
import { oauthTokenRoute } from "../routes/oauth-token";
import { DEVICE_ROUTES } from "../routes/platform-routes";
import { HOLD_THENS } from "./request-holds";

let knownRoutes: readonly string[] | undefined;

/** Every route key the counters can report, e.g. `POST /devices`. */
function routeKeys(): readonly string[] {
  knownRoutes ??= [
    routeKeyOf(oauthTokenRoute.method.toString(), oauthTokenRoute.url),
    ...DEVICE_ROUTES.map((r) => routeKeyOf(r.method.toString(), `/device/openapi/v1${r.url}`)),
  ];
  return knownRoutes;
}

/** Body of `POST /__emulator/holds`. */
export const holdSchema = z.object({
  route: z.string().refine((route) => routeKeys().includes(route), {
    error: () => `must be a route key as the counters spell it, one of: ${routeKeys().join(", ")}`,
  }),
  after: z.number().int().min(0),
  then: z.enum(HOLD_THENS).default("perform"),
});

/** What a client sends to set a hold. */
export type HoldInput = z.input<typeof holdSchema>;

const holdIdSchema = z.object({ holdId: z.string().regex(/^\d+$/, "must be digits") });

/**
 * `/__emulator/holds`: set a hold on a route after its Nth request, list the holds, release one
 * (its waiting requests perform or fail as the hold says) or all. A release answers once every
 * released request has been answered, so what they did is visible to the next control call.
 */
export function registerHoldRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post("/__emulator/holds", async (request, reply) => {
    const { route, after, then } = parseWith(holdSchema, request.body, "hold");
    return sendSuccess(request, reply, { holdId: ctx.holds.set(route, after, then) });
  });

  app.get("/__emulator/holds", async (request, reply) => sendSuccess(request, reply, ctx.holds.list()));

  app.post("/__emulator/holds/:holdId/release", async (request, reply) => {
    const { holdId } = parseWith(holdIdSchema, request.params, "path");
    const answers = ctx.holds.release(holdId);
    if (answers === undefined) {
      throw new EmulatorError(404, ErrCode.RouteNotFound, `no hold ${holdId} (released already?)`);
    }
    await Promise.all(answers);
    return sendSuccess(request, reply, { released: answers.length });
  });

  app.delete("/__emulator/holds", async (request, reply) => {
    const answers = ctx.holds.releaseAll();
    await Promise.all(answers);
    return sendSuccess(request, reply, { released: answers.length });
  });
}
