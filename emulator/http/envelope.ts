import type { FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorError } from "./emulator-error";
import { stringifyJson } from "./lossless-json";
import { requestState } from "./request-context";

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * Drops the connection without an answer (TCP RST). Used by the `reset` fault before the operation
 * and by `reset-after` after it, so a client sees a lost response either way.
 */
export function destroyConnection(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  requestState(request).onAnswered?.();
  reply.hijack();
  request.raw.socket.resetAndDestroy();
  return reply;
}

function send(request: FastifyRequest, reply: FastifyReply, status: number, body: unknown): FastifyReply {
  const state = requestState(request);
  state.onAnswered?.();
  if (state.resetAfter) return destroyConnection(request, reply);
  if (state.emptyAfter) return reply.code(200).send("");
  return reply.code(status).header("content-type", JSON_TYPE).send(stringifyJson(body));
}

/** What an operation returns to answer without a `data` field (Invoke Device Services). */
export const NO_DATA: unique symbol = Symbol("no data");

/** HTTP 200 with `{ status: "Success", requestId, data }` (no `data` for {@link NO_DATA}). */
export function sendSuccess(request: FastifyRequest, reply: FastifyReply, data: unknown): FastifyReply {
  if (data === NO_DATA) return send(request, reply, 200, { status: "Success", requestId: request.id });
  return send(request, reply, 200, { data, status: "Success", requestId: request.id });
}

/** The failure envelope `{ status: "Failed", requestId, errCode, errMsg, data: null }`. */
export function sendFailure(
  request: FastifyRequest,
  reply: FastifyReply,
  error: EmulatorError,
): FastifyReply {
  reply.headers(error.headers);
  return send(request, reply, error.statusCode, {
    status: "Failed",
    requestId: request.id,
    errCode: error.errCode,
    errMsg: error.message,
    data: null,
  });
}
