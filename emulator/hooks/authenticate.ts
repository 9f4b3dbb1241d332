import type { FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorContext } from "../context";
import { EmulatorError } from "../http/emulator-error";
import { sendFailure } from "../http/envelope";
import { requestState } from "../http/request-context";
import { routeKeyOf } from "../http/route-key";

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The access token: `Authorization: Bearer …`, else the discouraged `access_token` query parameter. */
function accessTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) return BEARER.exec(header)?.[1];
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.access_token;
  return typeof fromQuery === "string" ? fromQuery : undefined;
}

/**
 * Hook of every device, RPS and task operation: a valid access token (401 otherwise), then the
 * application's daily quota (429 `quota_exhausted`: it wins over the rate limit, since waiting a
 * second would not help), then the per-application rate limit (429 `rate_limited`). Only a request
 * admitted by all three counts against the quota. Runs before the body is parsed, so a bad token
 * wins over a bad body.
 */
export function authenticate(ctx: EmulatorContext) {
  return async function onRequest(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply | undefined> {
    try {
      const applicationId = ctx.tokens.authenticate(accessTokenOf(request));
      const now = ctx.clock.now();
      ctx.quota.refuseIfSpent(applicationId, now);
      try {
        ctx.rateLimiter.admit(applicationId, now);
      } catch (error) {
        const pattern = request.routeOptions.url;
        if (pattern !== undefined) ctx.counters.countRateLimited(routeKeyOf(request.method, pattern));
        throw error;
      }
      ctx.quota.count(applicationId, now);
      requestState(request).applicationId = applicationId;
      return undefined;
    } catch (error) {
      if (error instanceof EmulatorError) return sendFailure(request, reply, error);
      throw error;
    }
  };
}
