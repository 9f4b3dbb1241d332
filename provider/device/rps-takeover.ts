/**
 * The hand-over of a serial number from RPS to platform management: its RPS record must be deleted
 * before the device can be added. The record's profile URL is remembered, so that an add that fails
 * afterwards can say what was removed and how to put it back.
 */
import type { DevicePlatformClient } from "../../sdk";
import { NotFoundError } from "../../sdk";
import { invalidateRpsListing, rpsProfileUrl } from "../rps-profile/listing";

/** Deletes the RPS record of `sn` if there is one; returns its profile URL, or undefined. */
export async function takeOverRpsRecord(
  client: DevicePlatformClient,
  sn: string,
): Promise<string | undefined> {
  const profileUrl = await rpsProfileUrl(client, sn);
  if (profileUrl === undefined) return undefined;
  invalidateRpsListing();
  try {
    await client.deleteRpsProfile(sn);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  return profileUrl;
}

/** The sentence added to a failed add after the RPS record was deleted. */
export function removedRpsNote(sn: string, profileUrl: string): string {
  return (
    `the RPS record of ${sn} (profileUrl ${profileUrl}) had already been deleted for the take-over and was not ` +
    "restored; run `pulumi up` again to finish adding the device, or declare an RpsProfile with that profileUrl " +
    "to hand the device back to RPS"
  );
}
