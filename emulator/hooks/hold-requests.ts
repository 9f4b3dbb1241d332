import type { FastifyInstance, FastifyRequest } from "fastify";
import type { IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import type { EmulatorContext } from "../context";
import type { HoldThen } from "../control/request-holds";
import { EmulatorError } from "../http/emulator-error";
import { ErrCode } from "../http/err-codes";
import { requestState } from "../http/request-context";

/** Bodies of requests that waited (held or delayed), read while they waited. */
const heldBodies = new WeakMap<FastifyRequest, Promise<Buffer>>();

/**
 * Reads a request's whole body now. A held request's client may die while it waits (the point of
 * a kill point); Node then destroys the unread request stream, and the platform, which had the
 * request, could no longer perform it. Whatever arrived before an error is kept.
 */
function readBody(raw: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const done = () => resolve(Buffer.concat(chunks));
    raw.on("data", (chunk: Buffer) => chunks.push(chunk));
    raw.once("end", done);
    raw.once("error", done);
    raw.once("close", done);
  });
}

/**
 * Offers a counted request to the holds of its route and waits while one holds it. Returns what to
 * do next: `"perform"` (also when no hold applies) or `"fail"`.
 */
export async function holdRequest(
  ctx: EmulatorContext,
  route: string,
  request: FastifyRequest,
): Promise<HoldThen> {
  const held = ctx.holds.admit(route);
  if (held === undefined) return "perform";
  requestState(request).onAnswered = held.markAnswered;
  keepBody(request);
  return held.outcome;
}

/**
 * Reads the body of a request that will wait (held, or delayed by a fault) now, so it is performed
 * even if its client dies meanwhile: the platform had the whole request.
 */
export function keepBody(request: FastifyRequest): void {
  if (!heldBodies.has(request)) heldBodies.set(request, readBody(request.raw));
}

/** The answer to a held request released with `then: "fail"`: 503, not performed. */
export function heldThenFailed(route: string): EmulatorError {
  return new EmulatorError(
    503,
    ErrCode.ServiceUnavailable,
    `held request released to fail: ${route} was not performed`,
  );
}

/** Parses a request that waited from the body read meanwhile (see {@link readBody}). */
export function registerHeldBodies(app: FastifyInstance): void {
  app.addHook("preParsing", async (request, _reply, payload) => {
    const body = heldBodies.get(request);
    if (body === undefined) return payload;
    const replay = new PassThrough();
    replay.end(await body);
    return replay;
  });
}
