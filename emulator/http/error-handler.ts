import type { FastifyError, FastifyInstance } from "fastify";
import { EmulatorError } from "./emulator-error";
import { sendFailure } from "./envelope";
import { ErrCode } from "./err-codes";

function toEmulatorError(error: unknown): EmulatorError {
  if (error instanceof EmulatorError) return error;
  const fastifyError = error as Partial<FastifyError>;
  const status = fastifyError.statusCode;
  // Fastify's own 4xx (unsupported content type, body too large, malformed body): the caller's fault.
  if (status !== undefined && status >= 400 && status < 500) {
    return new EmulatorError(
      status === 413 ? 413 : 400,
      ErrCode.InvalidParameter,
      fastifyError.message ?? "bad request",
    );
  }
  return new EmulatorError(500, ErrCode.InternalError, `internal error: ${(error as Error).message}`);
}

/** Renders every error and unknown route in the failure envelope. */
export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => sendFailure(request, reply, toEmulatorError(error)));
  app.setNotFoundHandler((request, reply) =>
    sendFailure(
      request,
      reply,
      new EmulatorError(
        404,
        ErrCode.RouteNotFound,
        `no operation ${request.method} ${request.url.split("?")[0]}`,
      ),
    ),
  );
}
