/**
 * The program the review's e2e previews (and the unit tests' recorded previews come from): a
 * DeviceFleet read from `fleet.json`, a DeviceConfig on every device of the fleet (its report
 * interval read from `config.json`), and one Device whose description is a secret.
 */
import { serialNumbers, type FleetDeviceSpec } from "./fleet-programs";

/** What the review program reads: the fleet's devices and the fleet configuration's interval. */
export interface ReviewWorld {
  fleet: FleetDeviceSpec[];
  reportInterval: number;
}

/** The secret the program gives the Device's description: it must appear in no summary. */
export const REVIEW_SECRET = "s3cret-description-7d1f";

/** The review program (the serial number of its single Device is fixed at `soloSn`). */
export function reviewProgram(soloSn: string): string {
  return [
    `import { readFileSync } from "node:fs";`,
    `import * as pulumi from "@pulumi/pulumi";`,
    `import * as devplatform from "pulumi-devplatform";`,
    `const read = (file: string) => JSON.parse(readFileSync(__dirname + "/" + file, "utf8"));`,
    `const fleet = new devplatform.DeviceFleet("site-a", { devices: read("fleet.json"), maxRemovals: 5 });`,
    `new devplatform.DeviceConfig("site-a-reporting", {`,
    `  deviceIds: fleet.deviceIds.apply((ids: Record<string, string>) => Object.values(ids)),`,
    `  properties: { reportInterval: read("config.json").reportInterval },`,
    `});`,
    `new devplatform.Device(${JSON.stringify(soloSn)}, {`,
    `  sn: ${JSON.stringify(soloSn)}, name: "solo", description: pulumi.secret(${JSON.stringify(REVIEW_SECRET)}),`,
    `});`,
    "",
  ].join("\n");
}

/** The item at `index` of `list` (negative counts from the end); fails when there is none. */
export function pick<T>(list: readonly T[], index: number): T {
  const item = list.at(index);
  if (item === undefined) throw new Error(`no item at ${index} of ${list.length}`);
  return item;
}

/** The first world: `count` devices named `device-N`, tagged, reporting every 900 s. */
export function firstWorld(count: number): ReviewWorld {
  const fleet = serialNumbers(count).map((sn, i) => ({ sn, name: `device-${i}`, tags: ["site-a"] }));
  return { fleet, reportInterval: 900 };
}

/**
 * The change a pull request makes: two devices added, the first renamed, the last removed, and
 * the report interval from 900 to 600.
 */
export function changedWorld(world: ReviewWorld): ReviewWorld {
  const added = serialNumbers(2).map((sn, i) => ({ sn, name: `added-${i}`, tags: ["site-a"] }));
  const first = pick(world.fleet, 0);
  const kept = world.fleet.slice(1, -1);
  return { fleet: [{ ...first, name: `${first.name}-renamed` }, ...kept, ...added], reportInterval: 600 };
}
