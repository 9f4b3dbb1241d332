import type { FastifyRequest, HTTPMethods } from "fastify";
import type { EmulatorContext } from "../context";

/**
 * One platform operation. `run` performs it and returns the envelope's `data` (`undefined` → null);
 * failures are thrown as `EmulatorError`. Registration, authentication and rendering are shared.
 */
export interface PlatformRoute {
  method: HTTPMethods;
  /** Path below the version prefix, fastify syntax, e.g. `/devices/:deviceId`. */
  url: string;
  run(ctx: EmulatorContext, request: FastifyRequest): unknown;
}
