/**
 * The import ids of the lifecycle's resources, in the formats the plugin's import reads take:
 * a Device by its deviceId, a DeviceFleet by a project filter, an RpsProfile by serial number, a
 * DeviceConfig by deviceId and property ids.
 */
import type { LifecycleResources } from "./plugin-lifecycle";

/** The id `pulumi import` (or the `import` option) is given for one resource of the lifecycle. */
export function importIdOf(
  name: keyof LifecycleResources,
  res: LifecycleResources,
  deviceId: string,
): string {
  switch (name) {
    case "device":
      return deviceId;
    case "fleet":
      return `project=${(res.fleet[0] as { project: string }).project}`;
    case "rps":
      return res.rps.sn;
    case "config":
      return `${deviceId}:${Object.keys(res.config.properties).join(",")}`;
  }
}
