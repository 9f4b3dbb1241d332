/**
 * A fleet declared from an inventory file: one Device per line, grouped, with stack outputs a
 * pipeline or a dashboard can read.
 *
 *   pulumi config set devplatform:baseUrl https://<server_address>
 *   pulumi config set devplatform:clientId <client id>
 *   pulumi config set --secret devplatform:clientSecret <client secret>
 *   pulumi up
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { Device, DeviceConfig } from "pulumi-devplatform";
import { GROUP_CONFIG } from "./group-config";
import { readInventory } from "./inventory";

const config = new pulumi.Config("fleet");
const inventoryFile = path.resolve(__dirname, config.get("inventory") ?? "inventory.csv");
const project = config.get("project") ?? "demo";

const inventory = readInventory(inventoryFile);
const devices = inventory.map(
  (entry) =>
    new Device(entry.name, {
      sn: entry.sn,
      name: entry.name,
      project,
      description: `${entry.group} device managed by Pulumi`,
      tags: [`group:${entry.group}`, ...entry.tags],
    }),
);

// One DeviceConfig per group: one device is configured with a PATCH, several with configuration tasks.
for (const [group, properties] of Object.entries(GROUP_CONFIG)) {
  const members = devices.filter((_, i) => inventory[i]?.group === group);
  if (members.length === 0) continue;
  new DeviceConfig(`${group}-config`, { deviceIds: members.map((d) => d.deviceId), properties });
}

/** One row per device: what `npm run demo` prints. */
export const fleet = devices.map((device) =>
  pulumi
    .all([device.sn, device.deviceId, device.name, device.model, device.connectStatus, device.tags])
    .apply(([sn, deviceId, name, model, connectStatus, tags]) => ({
      sn,
      deviceId,
      name,
      model,
      connectStatus,
      tags,
    })),
);

export const deviceCount = devices.length;
