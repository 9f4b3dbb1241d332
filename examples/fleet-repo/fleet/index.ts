/**
 * One site's fleet, declared from the stack's inventory: `Pulumi.<stack>.yaml` names the file
 * (`fleet:inventory: inventories/site-a.csv`), so every stack runs this same program on its own
 * devices. The provider's settings come from the environment the workflows set
 * (`DEVPLATFORM_BASE_URL`, `DEVPLATFORM_CLIENT_ID`, `DEVPLATFORM_CLIENT_SECRET`), or from stack
 * settings (`devplatform:baseUrl`, …) when a stack talks to another application.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { DeviceFleet } from "pulumi-devplatform";
import { readInventory } from "pulumi-devplatform/inventory";

const config = new pulumi.Config("fleet");
// Required: a stack without its inventory is a mistake, never an empty fleet.
const inventory = readInventory(path.resolve(__dirname, config.require("inventory")));
// A guard against a truncated inventory: an `up` that would remove more devices than this fails
// and removes nothing (raise it in the stack's settings to remove more at once).
const maxRemovals = config.getNumber("maxRemovals") ?? 5;

const fleet = new DeviceFleet("fleet", {
  devices: inventory,
  maxRemovals,
});

/** The platform's deviceId of each serial number. */
export const deviceIds = fleet.deviceIds;
export const deviceCount = inventory.length;
