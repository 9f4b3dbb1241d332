import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { modelByKey, tslOf } from "../catalogue";
import type { EmulatorContext } from "../context";
import { deviceFromPath } from "../devices/device-lookup";
import { invalidParameter } from "../http/emulator-error";
import { parseWith } from "../http/validation";
import type { DeviceRecord, PropertyMap } from "../state/types";
import { mergeInto, withoutDropped } from "../tsl/apply-properties";
import { checkProperties } from "../tsl/validate-properties";
import type { PlatformRoute } from "./platform-route";
import { emitDeviceData } from "../webhooks/emit";

/** `properties`: a non-empty object of property id → value. */
export const propertiesSchema = z
  .record(z.string(), z.unknown(), { error: "properties must be an object of property id → value" })
  .refine((p) => Object.keys(p).length > 0, { error: "name at least one property" });

const patchSchema = z.object({ properties: propertiesSchema });

/** Checks properties against a device's TSL model; every broken rule makes one 400. */
export function checkForDevice(device: DeviceRecord, input: Record<string, unknown>): PropertyMap {
  const tsl = tslOf(modelByKey(device.modelKey), device.tslVersion);
  const { values, problems } = checkProperties(tsl, input);
  if (problems.length > 0) {
    throw invalidParameter(
      `properties do not fit the TSL model ${tsl.version} of device ${device.deviceId}: ${problems.join("; ")}`,
    );
  }
  return values;
}

/**
 * `PATCH /devices/{deviceId}/properties`: Update Device Properties Incrementally. Responds with the
 * properties applied, in the shape they were sent; under a `dropProperties` fault the dropped ones are
 * neither applied nor reported.
 */
export const patchPropertiesRoute: PlatformRoute = {
  method: "PATCH",
  url: "/devices/:deviceId/properties",
  run(ctx: EmulatorContext, request: FastifyRequest) {
    const device = deviceFromPath(ctx, request);
    const { properties } = parseWith(patchSchema, request.body, "Update Device Properties body");
    const values = checkForDevice(device, properties);
    const dropped = ctx.faults.droppedProperties();
    ctx.store.updateDevice(device, (d) => {
      mergeInto(d.properties, withoutDropped(values, dropped));
      d.lastUpdateTime = ctx.clock.now();
    });
    emitDeviceData(ctx, device.deviceId, withoutDropped(values, dropped), device.lastUpdateTime);
    return { properties: withoutDropped(properties, dropped) };
  },
};
