/**
 * The `RpsProfile` resource: the RPS profile URL of a device not yet on the platform, identified
 * by its serial number.
 */
import * as pulumi from "@pulumi/pulumi";
import { providerOfResource } from "./serialized-provider";

/** The inputs of an {@link RpsProfile}. */
export interface RpsProfileArgs {
  /** Serial number (12–16 hex digits); changing it replaces the record. */
  sn: pulumi.Input<string>;
  /** Absolute https URL of the device's profile; a change updates the record in place. */
  profileUrl: pulumi.Input<string>;
}

/** An RPS record (Specify the Profile URL for RPS / Delete RPS Record of a Device). */
export class RpsProfile extends pulumi.dynamic.Resource {
  declare readonly sn: pulumi.Output<string>;
  declare readonly profileUrl: pulumi.Output<string>;

  constructor(name: string, args: RpsProfileArgs, opts?: pulumi.CustomResourceOptions) {
    super(providerOfResource("RpsProfile"), name, args, opts, "devplatform", "RpsProfile");
  }
}
