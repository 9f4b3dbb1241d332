import type { FastifyRequest } from "fastify";
import type { EmulatorContext } from "../context";
import { deviceNotFound, invalidParameter } from "../http/emulator-error";
import { DIGITS } from "../http/ids";
import { applicationOf } from "../http/request-context";
import type { DeviceRecord } from "../state/types";

/** A path parameter by name; path parameters always arrive as strings. */
export function pathParam(request: FastifyRequest, name: string): string {
  const params = request.params as Record<string, string | undefined>;
  return params[name] ?? "";
}

/** The `{deviceId}` path parameter, validated as a Long. */
export function deviceIdParam(request: FastifyRequest): string {
  const deviceId = pathParam(request, "deviceId");
  if (!DIGITS.test(deviceId))
    throw invalidParameter(`deviceId must be a string of digits, got "${deviceId}"`);
  return deviceId;
}

/** A device of the caller's application; 404 `device_not_found` otherwise. */
export function requireDevice(ctx: EmulatorContext, request: FastifyRequest, deviceId: string): DeviceRecord {
  const device = ctx.store.deviceInApplication(deviceId, applicationOf(request));
  if (!device) throw deviceNotFound(deviceId);
  return device;
}

/** The device named by the `{deviceId}` path parameter. */
export function deviceFromPath(ctx: EmulatorContext, request: FastifyRequest): DeviceRecord {
  return requireDevice(ctx, request, deviceIdParam(request));
}
