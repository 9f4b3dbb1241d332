/**
 * The `RpsFleet` resource: a batch of RPS records (a shipment's `rps.csv`) as one engine resource.
 * Its id is the batch's name.
 */
import * as pulumi from "@pulumi/pulumi";
import { providerOfResource } from "./serialized-provider";

/** One RPS record of a batch: the inputs of an RpsProfile. */
export interface RpsFleetRecord {
  /** Serial number (12–16 hex digits) of a device not on the platform. */
  sn: string;
  /** Absolute https URL of the device's profile. */
  profileUrl: string;
}

/** The inputs of an {@link RpsFleet}. */
export interface RpsFleetArgs {
  /** The records of the batch (serial numbers unique without regard to case). */
  records: pulumi.Input<pulumi.Input<RpsFleetRecord>[]>;
  /** Platform requests in flight at once for this batch (default 16, at most 64). */
  concurrency?: pulumi.Input<number>;
  /**
   * An update that would delete more records than this fails at preview, naming the count: a guard
   * against a truncated rps.csv (records handed over to a device resource are not counted).
   */
  maxRemovals?: pulumi.Input<number>;
}

/** Many RPS records, reconciled by serial number with the platform's RPS operations. */
export class RpsFleet extends pulumi.dynamic.Resource {
  /** Serial number (as declared) → the profile URL the batch applied. */
  declare readonly profileUrls: pulumi.Output<Record<string, string>>;

  constructor(name: string, args: RpsFleetArgs, opts?: pulumi.CustomResourceOptions) {
    // The name travels as an input (a dynamic provider is not told it), and the records as one JSON
    // string, as a DeviceFleet's devices do (see dynamic/device-fleet.ts).
    const records = pulumi.output(args.records).apply((list) => JSON.stringify(list));
    super(
      providerOfResource("RpsFleet"),
      name,
      { profileUrls: undefined, ...args, records, fleetName: name },
      opts,
      "devplatform",
      "RpsFleet",
    );
  }
}
