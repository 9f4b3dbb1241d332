/**
 * A shipment's RPS records as one resource: every line of rps.csv (`sn,profileUrl`, as the
 * manufacturer or distributor sends it) is a record of the RpsFleet "shipment", keyed by serial
 * number. Add lines to register more devices, change a URL to redirect one (one request), delete a
 * line to delete its record — more than `maxRemovals` at once stops at preview, as does an emptied
 * rps.csv (readRps refuses a file with a header and no record).
 *
 * The hand-over: list a serial number in `rps-batch:managed` (`pulumi config set --path
 * 'rps-batch:managed[0]' AC0000E50001`) and it leaves the batch for the DeviceFleet "site", whose
 * `takeOverRps` deletes the record before adding the device — one `pulumi up`, not counted as a
 * removal.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { DeviceFleet, RpsFleet } from "pulumi-devplatform";
import { readRps } from "pulumi-devplatform/inventory";

const config = new pulumi.Config("rps-batch");
const managed = new Set((config.getObject<string[]>("managed") ?? []).map((sn) => sn.toUpperCase()));

const records = readRps(path.join(__dirname, "rps.csv"));

// Declared first (and a dependency of the batch), so the batch's preview already knows which of its
// records the fleet takes over.
const site = new DeviceFleet("site", {
  takeOverRps: true,
  devices: records
    .filter(({ sn }) => managed.has(sn.toUpperCase()))
    .map(({ sn }, i) => ({ sn, name: `site-device-${i + 1}` })),
});

const shipment = new RpsFleet(
  "shipment",
  { records: records.filter(({ sn }) => !managed.has(sn.toUpperCase())), maxRemovals: 2 },
  { dependsOn: [site] },
);

export const staged = shipment.profileUrls.apply((urls) => Object.keys(urls).length);
export const deviceIds = site.deviceIds;
