/**
 * A small fleet with one Device resource per device, read from `inventory.csv`: the simplest way
 * to declare a few dozen devices, each with its own outputs (deviceId, model, connectStatus, …) and
 * options. For hundreds or thousands of devices, use a DeviceFleet (see examples/fleet): one engine
 * resource per device costs the engine time on every preview and `up`.
 *
 * Each Device is named by its serial number. A resource's name is its identity in Pulumi's state:
 * name devices by something that never changes, so that renaming a device (the `name` column) is an
 * in-place update. To rename resources that were named otherwise, keep their old name as an alias
 * for one `up`, e.g. `new Device(sn, args, { aliases: [{ name: "lobby-temperature" }] })` — without
 * one the new resource adopts the device and the old one's delete leaves it on the platform.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { Device } from "pulumi-devplatform";
import { readInventory } from "pulumi-devplatform/inventory";

const config = new pulumi.Config("devices");
const inventory = readInventory(path.resolve(__dirname, config.get("inventory") ?? "inventory.csv"));
const project = config.get("project");

const devices = inventory.map(
  (entry) =>
    new Device(entry.sn, {
      sn: entry.sn,
      name: entry.name,
      description: entry.description,
      project: entry.project ?? project,
      tags: entry.tags,
    }),
);

/** Serial number → deviceId. */
export const deviceIds = Object.fromEntries(devices.map((device, i) => [inventory[i]?.sn, device.deviceId]));
/** Serial number → connection status, as of the last `up` or `refresh`. */
export const connectStatus = Object.fromEntries(
  devices.map((device, i) => [inventory[i]?.sn, device.connectStatus]),
);
