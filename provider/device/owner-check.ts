/**
 * What the owner marker (provider/shared/owner-marker.ts) means for a device's writes: a delete
 * that finds another stack's marker deletes nothing, a write to a device recorded without this
 * stack's marker reads it first, and a preview says how many devices gain the marker. "Another
 * stack's" is any marker other than the one this stack writes now and the one the resource's state
 * recorded (the same stack before a rename, a project rename or a prefix change).
 */
import type { DevicePlatformClient, Device as PlatformDevice } from "../../sdk";
import { stackMarker } from "../guardrails/stack-marker";
import { log } from "../output/log";
import { namesakeNote, otherOwnerIn } from "../shared/owner-marker";
import { OwnedElsewhereError } from "./adoption";

/** The owner marker a state recorded: the tag this stack wrote on the device (none before markers). */
export function markerOfState(props: Record<string, unknown>): string | undefined {
  return typeof props.ownerMarker === "string" ? props.ownerMarker : undefined;
}

/**
 * Why this stack must not delete or reset `device` — another stack's owner marker is on it — or
 * undefined when it may (its marker is this stack's, now or as recorded, or it has none: made by
 * hand, or managed before markers were written). Without a `marker` (no deployment) nothing is
 * refused.
 */
export function refuseOtherOwner(
  device: PlatformDevice,
  marker: string | undefined,
  recorded?: string | readonly string[],
): string | undefined {
  const other = marker === undefined ? undefined : otherOwnerIn(device.tag, marker, recorded);
  if (other === undefined) return undefined;
  return (
    `stack "${other}" manages it now (its owner tag says so${namesakeNote(other, marker as string)}); it stays ` +
    "on the platform and leaves this stack's state"
  );
}

/**
 * Before the first write of this stack's marker to a device it already records (a device managed
 * before markers, or a stack renamed): reads the device, and refuses — nothing written — when
 * another stack's marker is on it (neither `marker` nor the `recorded` one), unless the program
 * takes it over.
 */
export async function confirmOwnership(
  client: DevicePlatformClient,
  deviceId: string,
  marker: string,
  options: { operation: string; takeOver: boolean; takeOverHint?: string; recorded?: string },
): Promise<PlatformDevice> {
  const device = await client.getDevice(deviceId);
  const other = otherOwnerIn(device.tag, marker, options.recorded);
  if (other !== undefined && !options.takeOver) {
    throw new OwnedElsewhereError(
      `${options.operation} failed: deviceId ${deviceId} is managed by stack "${other}" (its owner tag says ` +
        `so${namesakeNote(other, marker)}); nothing was written. Remove the device from one of the two stacks' ` +
        `programs, or ${options.takeOverHint ?? "set takeOver: true"} to move it to this stack`,
    );
  }
  return device;
}

/**
 * Before an update of a device recorded without this stack's current marker (`olds`, the state):
 * reads it, since another stack may own it (see {@link confirmOwnership}); nothing to do when the
 * state recorded the current marker, or outside a deployment (no marker).
 */
export async function confirmUnmarked(
  client: DevicePlatformClient,
  deviceId: string,
  marker: string | undefined,
  olds: Record<string, unknown>,
  options: { operation: string; takeOver: boolean },
): Promise<void> {
  const recorded = markerOfState(olds);
  if (marker === undefined || recorded === marker) return;
  await confirmOwnership(client, deviceId, marker, { ...options, recorded });
}

/**
 * At an import or a refresh: warns when another stack's owner tag is on a device this resource
 * records without this stack's tag (`pulumi import` of another stack's device, say). The next `up`
 * does not give it this stack's tag: it refuses to write to it (see {@link confirmOwnership}), and
 * a program that drops it forgets it without deleting it. Nothing outside a deployment (no marker).
 */
export async function warnOtherOwner(device: PlatformDevice, recorded: string | undefined): Promise<void> {
  const marker = await stackMarker();
  const other = marker === undefined ? undefined : otherOwnerIn(device.tag, marker, recorded);
  if (other === undefined) return;
  await log.warn(
    `Device sn=${device.sn ?? ""}: deviceId ${device.deviceId} is managed by stack "${other}" (its owner tag says ` +
      `so${namesakeNote(other, marker as string)}), not by this stack: the next up will not give it this stack's owner ` +
      "tag. It refuses to write to it (nothing written) unless the program takes it over (takeOver: true), and " +
      "a program that drops it forgets it without deleting it",
  );
}

/**
 * The preview's line for devices this stack records without its marker: `Device sn=…: gains the
 * owner tag "pulumi-stack:fleet/prod@…" (1 device, 1 PUT; …)`.
 */
export function ownerMarkerNote(subject: string, devices: number, marker: string): string {
  const count = devices === 1 ? "1 device" : `${devices} devices`;
  const writes = devices === 1 ? "a read and a PUT" : `reads and ${devices} PUTs`;
  return (
    `${subject}: ${count} recorded without this stack's owner tag will be given ${JSON.stringify(marker)} ` +
    `(${writes}; nothing else changes), unless another stack's owner tag is on it: that device is refused, ` +
    "nothing written to it, unless the program takes it over. The tag names the stack that manages a device, so " +
    "that no other stack adopts, deletes or resets it"
  );
}
