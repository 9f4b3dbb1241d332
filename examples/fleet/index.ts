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
import { readInventory, type InventoryEntry } from "pulumi-devplatform/inventory";
import { GROUP_CONFIG } from "./group-config";

const config = new pulumi.Config("fleet");
const inventory = readInventory(path.resolve(__dirname, config.get("inventory") ?? "inventory.csv"));
const project = config.get("project") ?? "demo";
// A guard against a truncated inventory: an `up` that would remove more devices fails at preview.
const maxRemovals = config.getNumber("maxRemovals") ?? 5;

const groups = new Map<string, InventoryEntry[]>();
for (const entry of inventory) {
  const group = entry.extra?.group ?? "ungrouped";
  groups.set(group, [...(groups.get(group) ?? []), entry]);
}

const fleets = [...groups].map(([group, entries]) => {
  const fleet = new DeviceFleet(group, {
    devices: entries.map((entry) => ({
      sn: entry.sn,
      name: entry.name,
      project,
      description: `${group} device managed by Pulumi`,
      tags: [`group:${group}`, ...(entry.tags ?? [])],
    })),
    maxRemovals,
  });
  // One DeviceConfig per group: validated against each device's TSL model at preview; one device
  // is configured with a PATCH, several with configuration tasks.
  const properties = GROUP_CONFIG[group];
  if (properties) new DeviceConfig(`${group}-config`, { deviceIds: fleet.deviceIds, properties });
  return { group, entries, fleet };
});

/** One row per device: what `npm run demo` prints. */
export const fleet = pulumi
  .all(
    fleets.map(({ group, entries, fleet }) =>
      pulumi.all([fleet.deviceIds, fleet.devices]).apply(([ids, devices]) =>
        entries.map((entry) => ({
          sn: entry.sn,
          deviceId: ids[entry.sn],
          name: entry.name,
          group,
          model: devices[entry.sn]?.model,
          deviceType: devices[entry.sn]?.deviceType,
          tags: entry.tags ?? [],
        })),
      ),
    ),
  )
  .apply((rows) => rows.flat());

export const deviceCount = inventory.length;
