/**
 * A device put on the platform out of band (the control API's seed, another writer's interleaved
 * change), in the application it names or the default one.
 */
import { createDevice } from "../devices/device-factory";
import { DEFAULT_APPLICATION_ID } from "../state/id-sequence";
import type { PlatformScope } from "../state/platform-scope";
import type { DeviceRecord } from "../state/types";
import type { z } from "zod";
import type { seedDeviceSchema } from "./control-schemas";

/** Creates and stores the device; the caller has checked that its serial number is free. */
export function insertSeededDevice(
  ctx: PlatformScope,
  seed: z.output<typeof seedDeviceSchema>,
): DeviceRecord {
  const applicationId = ctx.store.ensureApplication(
    seed.applicationId ?? DEFAULT_APPLICATION_ID,
  ).applicationId;
  const device = createDevice({
    deviceId: ctx.store.deviceIds.issue(),
    applicationId,
    sn: seed.sn,
    name: seed.name,
    description: seed.description,
    project: seed.project,
    tag: seed.tag ?? [],
    now: ctx.clock.now(),
  });
  ctx.store.insertDevice(device);
  return device;
}
