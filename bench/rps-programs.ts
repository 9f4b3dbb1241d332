/**
 * The RPS rows' Pulumi programs: a batch of N records as one RpsFleet, the same N records as N
 * RpsProfile resources, and the engine's floor for one resource of the batch's shape (a no-op
 * dynamic resource carrying what an RpsFleet carries, asking no platform anything).
 */
import { benchSerial } from "./programs";

/** The profile URL of bench record `i`; `changed` gives one record another URL (an `up` changing one). */
function benchUrl(i: number, changed?: number): string {
  return `https://rps.example.com/bench/${i}${i === changed ? "?v=2" : ""}`;
}

/** The batch's records, as the file the batch program reads. */
export function rpsRecordsFile(count: number, snPrefix: string, changed?: number): string {
  return JSON.stringify(
    Array.from({ length: count }, (_, i) => ({
      sn: benchSerial(snPrefix, i),
      profileUrl: benchUrl(i, changed),
    })),
  );
}

/** One RpsFleet of the records in `rps.json`. */
export const RPS_BATCH_PROGRAM = `import { readFileSync } from "node:fs";
import { RpsFleet } from "pulumi-devplatform";
const records = JSON.parse(readFileSync(__dirname + "/rps.json", "utf8"));
export const count = new RpsFleet("bench-batch", { records }).profileUrls.apply((urls) => Object.keys(urls).length);
`;

/** N RpsProfile resources, one a record, named by serial number. */
export function rpsProfilesProgram(count: number, snPrefix: string, changed?: number): string {
  return `import { RpsProfile } from "pulumi-devplatform";
export const ids = Array.from({ length: ${count} }, (_, i) => {
  const sn = "${snPrefix}" + i.toString(16).toUpperCase().padStart(10, "0");
  const profileUrl = "https://rps.example.com/bench/" + i + (i === ${changed ?? -1} ? "?v=2" : "");
  return new RpsProfile(sn, { sn, profileUrl }).id;
});
`;
}

/**
 * The engine's floor for one resource of the batch's shape: the records as one JSON string in,
 * checked into entries keyed by serial number, and `profileUrls` out — what an RpsFleet marshals.
 */
export const RPS_SHAPE_FLOOR_PROGRAM = `import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
const entriesOf = (inputs: any): Record<string, string> =>
  typeof inputs.records === "string"
    ? Object.fromEntries(JSON.parse(inputs.records).map((r: any) => [r.sn, r.profileUrl]))
    : inputs.records;
const outputsOf = (inputs: any) => ({ fleetName: inputs.fleetName, profileUrls: entriesOf(inputs) });
const provider: pulumi.dynamic.ResourceProvider = {
  async check(olds, news) { return { inputs: { ...news, records: entriesOf(news) } }; },
  async diff(id, olds, news) { return { changes: JSON.stringify(olds.profileUrls) !== JSON.stringify(entriesOf(news)) }; },
  async create(inputs) { return { id: inputs.fleetName, outs: outputsOf(inputs) }; },
  async update(id, olds, news) { return { outs: outputsOf(news) }; },
  async read(id, props) { return { id, props }; },
};
class ShapeFloor extends pulumi.dynamic.Resource {
  declare readonly profileUrls: pulumi.Output<Record<string, string>>;
  constructor(name: string, records: unknown[]) {
    super(provider, name, { profileUrls: undefined, records: JSON.stringify(records), fleetName: name }, {});
  }
}
const records = JSON.parse(readFileSync(__dirname + "/rps.json", "utf8"));
export const count = new ShapeFloor("bench-batch", records).profileUrls.apply((urls) => Object.keys(urls).length);
`;
