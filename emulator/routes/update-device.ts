import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { modelByKey, tslOf } from "../catalogue";
import type { EmulatorContext } from "../context";
import { requireDevice } from "../devices/device-lookup";
import { deviceResultView } from "../devices/device-views";
import { invalidParameter } from "../http/emulator-error";
import { parseWith } from "../http/validation";
import type { DeviceRecord, PropertyMap } from "../state/types";
import { initialConfiguration } from "../tsl/default-values";
import type { PlatformRoute } from "./platform-route";
import { idSchema, nameSchema, tagsSchema } from "./schemas";

const updateDeviceSchema = z.object({
  deviceId: idSchema,
  name: nameSchema,
  tslVersion: z.string().optional(),
  description: z.string().optional(),
  tag: tagsSchema.optional(),
  project: z.string({ error: "expected a string" }).optional(),
});

/**
 * The configuration after a TSL version change: values of properties the new version still has are
 * kept, new writable properties start at their defaults, and dropped ones go.
 */
function configurationFor(device: DeviceRecord, version: string): PropertyMap {
  const defaults = initialConfiguration(tslOf(modelByKey(device.modelKey), version));
  const kept: PropertyMap = {};
  for (const [id, value] of Object.entries(defaults)) kept[id] = device.properties[id] ?? value;
  return kept;
}

/** A non-empty project tags the device; an empty one removes its project. */
function setProject(device: DeviceRecord, project: string): void {
  if (project === "") delete device.project;
  else device.project = project;
}

function checkTslVersion(device: DeviceRecord, version: string): void {
  const versions = modelByKey(device.modelKey).tslVersions.map((t) => t.version);
  if (!versions.includes(version)) {
    throw invalidParameter(
      `tslVersion ${version} does not exist for this device's model; one of ${versions.join(", ")}`,
    );
  }
}

/**
 * `PUT /devices`: Update a Device Information. The body is the whole desired state: `name` is
 * required, an absent `description` or `tag` clears it, an absent `tslVersion` keeps the current one.
 * `project` is the device's project tag (the platform's API reference lists it here, optional):
 * absent keeps it, `""` clears it — the emulator's decision where the reference is silent. Under
 * the `ignoreProject` fault the answer is the same but the project stays as it was.
 */
export const updateDeviceRoute: PlatformRoute = {
  method: "PUT",
  url: "/devices",
  run(ctx: EmulatorContext, request: FastifyRequest) {
    const body = parseWith(updateDeviceSchema, request.body, "Update a Device Information body");
    const device = requireDevice(ctx, request, body.deviceId);
    if (body.tslVersion !== undefined) checkTslVersion(device, body.tslVersion);
    ctx.store.updateDevice(device, (d) => {
      d.name = body.name;
      d.tag = body.tag ?? [];
      if (body.description === undefined) delete d.description;
      else d.description = body.description;
      if (body.project !== undefined && !ctx.faults.ignoresProject()) setProject(d, body.project);
      if (body.tslVersion !== undefined && body.tslVersion !== d.tslVersion) {
        d.properties = configurationFor(d, body.tslVersion);
        d.tslVersion = body.tslVersion;
      }
    });
    return deviceResultView(device, ctx);
  },
};
