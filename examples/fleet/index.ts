/**
 * A fleet declared from an inventory file: one DeviceFleet per group of `inventory.csv`
 * (`sn,name,group,tags`), each group configured by one DeviceConfig fed by its fleet's ids, and
 * stack outputs a pipeline or a dashboard can read. This is what `npm run demo` deploys.
 *
 *   pulumi config set devplatform:baseUrl https://<server_address>
 *   pulumi config set devplatform:clientId <client id>
 *   pulumi config set --secret devplatform:clientSecret <client secret>
 *   pulumi up
 *
 * A fleet is one engine resource however many devices it holds: its preview prints the plan
 * ("DeviceFleet sensors: 1 to update (240000A10003: name …), 2 unchanged"), and an `up` sends one
 * request per device that changes and none for the others. Its name — the group — is its identity
 * in state, so keep group names stable; a device's serial number is its identity in the fleet.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { DeviceConfig, DeviceFleet } from "pulumi-devplatform";
import { readInventoryRecords, type InventoryEntry } from "pulumi-devplatform/inventory";
import { GROUP_CONFIG } from "./group-config";

const config = new pulumi.Config("fleet");
// `group` is this program's own column: named here, so that any other unknown column (a misspelled
// `Tags`, say) is still an error naming it.
const inventory = readInventoryRecords(path.resolve(__dirname, config.get("inventory") ?? "inventory.csv"), [
  "group",
]);
const project = config.get("project") ?? "demo";
// A guard against a truncated inventory: an `up` that would remove more devices from a fleet (or
// drop a fleet holding more) fails and removes nothing; `pulumi destroy` is not limited. Raise it
// to remove more at once:
//   pulumi config set fleet:maxRemovals 10
const maxRemovals = config.getNumber("maxRemovals") ?? 1;

// One fleet per group, for every configured group even when the inventory lists none of its
// devices: a group emptied by mistake is then an update that maxRemovals guards, not a fleet deleted.
const groups = new Map<string, InventoryEntry[]>(Object.keys(GROUP_CONFIG).map((group) => [group, []]));
for (const { device, columns } of inventory) {
  const group = columns.group || "ungrouped";
  groups.set(group, [...(groups.get(group) ?? []), device]);
}

const fleets = [...groups].map(([group, entries]) => {
  const devices = entries.map((entry) => ({
    sn: entry.sn,
    name: entry.name,
    project,
    description: `${group} device managed by Pulumi`,
    tags: [`group:${group}`, ...(entry.tags ?? [])],
  }));
  const fleet = new DeviceFleet(group, { devices, maxRemovals });
  // One DeviceConfig per group: validated against each device's TSL model at preview; one device
  // is configured with a PATCH, several with configuration tasks.
  const properties = GROUP_CONFIG[group];
  if (properties && devices.length > 0) {
    new DeviceConfig(`${group}-config`, { deviceIds: fleet.deviceIds, properties });
  }
  return { group, devices, fleet };
});

/** One row per device: what `npm run demo` prints. */
export const fleet = pulumi
  .all(
    fleets.map(({ group, devices, fleet }) =>
      pulumi.all([fleet.deviceIds, fleet.devices]).apply(([ids, platform]) =>
        devices.map((device) => ({
          sn: device.sn,
          deviceId: ids[device.sn],
          name: device.name,
          group,
          model: platform[device.sn]?.model,
          deviceType: platform[device.sn]?.deviceType,
          tags: device.tags,
        })),
      ),
    ),
  )
  .apply((rows) => rows.flat());

export const deviceCount = inventory.length;
