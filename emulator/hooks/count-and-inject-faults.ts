import type { FastifyReply, FastifyRequest } from "fastify";
import { setTimeout as sleep } from "node:timers/promises";
import type { EmulatorContext } from "../context";
import { EmulatorError } from "../http/emulator-error";
import { destroyConnection, sendFailure } from "../http/envelope";
import { ErrCode } from "../http/err-codes";
import { requestState } from "../http/request-context";
import { isControlRoute, routeKeyOf } from "../http/route-key";
import type { FaultDecision } from "../faults/fault-injector";
import { heldThenFailed, holdRequest, keepBody } from "./hold-requests";

function injectedError(decision: FaultDecision): EmulatorError {
  const retryAfter = { "retry-after": String(decision.retryAfterSeconds) };
  switch (decision.kind) {
    case "429":
      return new EmulatorError(429, ErrCode.RateLimited, "injected fault: rate limited", retryAfter);
    case "503":
      return new EmulatorError(
        503,
        ErrCode.ServiceUnavailable,
        "injected fault: service unavailable",
        retryAfter,
      );
    default:
      return new EmulatorError(500, ErrCode.InternalError, "injected fault: internal error");
  }
}

/**
 * First hook of every platform request: counts it under its route key, waits while a hold holds it
 * (see `RequestHolds`), then applies an injected fault if one is due. A faulted request never
 * reaches its handler, except `delay` (served late), `reset-after` (served, then the connection
 * is dropped instead of answered) and `empty-after` (served, then answered 200 with no body).
 */
export function countAndInjectFaults(ctx: EmulatorContext) {
  return async function onRequest(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply | undefined> {
    const pattern = request.routeOptions.url;
    if (pattern === undefined || isControlRoute(pattern)) return undefined;
    const route = routeKeyOf(request.method, pattern);
    ctx.counters.count(route);
    if ((await holdRequest(ctx, route, request)) === "fail") {
      return sendFailure(request, reply, heldThenFailed(route));
    }
    const decision = ctx.faults.decide(request.method, request.url, route);
    if (!decision) return undefined;
    ctx.counters.countFault(decision.kind);
    switch (decision.kind) {
      case "delay":
        keepBody(request);
        await sleep(decision.delayMs);
        return undefined;
      case "reset":
        return destroyConnection(request, reply);
      case "reset-after":
        requestState(request).resetAfter = true;
        return undefined;
      case "empty-after":
        requestState(request).emptyAfter = true;
        return undefined;
      default:
        return sendFailure(request, reply, injectedError(decision));
    }
  };
}
