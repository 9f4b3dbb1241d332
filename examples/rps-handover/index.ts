/**
 * Devices staged with RPS records, and the hand-over to platform management.
 *
 * Stage 1 (`pulumi config set rps-handover:stage staged`): every device gets an RPS record, so it
 * provisions itself from its profile URL and cannot be added to the platform by anyone else.
 *
 * Stage 2 (`pulumi config set rps-handover:stage managed`): the RPS records go away and the devices
 * are added with `takeOverRps: true`, which deletes a record still in the way before adding the
 * device, so the whole hand-over happens in one `pulumi up`.
 */
import * as pulumi from "@pulumi/pulumi";
import { Device, RpsProfile } from "pulumi-devplatform";

const config = new pulumi.Config("rps-handover");
const stage = config.get("stage") ?? "staged";
const profileUrl = config.get("profileUrl") ?? "https://rps.example.com/profiles/hvac-v1";
const serials = config.getObject<string[]>("serials") ?? ["AC0000D40001", "AC0000D40002", "AC0000D40003"];

if (stage !== "staged" && stage !== "managed") {
  throw new Error(`rps-handover:stage must be "staged" or "managed", got "${stage}"`);
}

// Resources are named by serial number: a resource's name is its identity in state.
export const records =
  stage === "staged" ? serials.map((sn) => new RpsProfile(`rps-${sn}`, { sn, profileUrl }).sn) : [];

export const devices =
  stage === "managed"
    ? serials.map(
        (sn, i) =>
          new Device(sn, {
            sn,
            name: `controller-${i + 1}`,
            takeOverRps: true,
            tags: ["handed-over"],
          }).deviceId,
      )
    : [];
