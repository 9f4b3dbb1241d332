/**
 * Which TSL version each device runs, as far as this deployment changed it.
 *
 * The platform serves a device's TSL model for the version the device runs now, and nothing but
 * the model itself reports that version. A Device whose `tslVersion` changes in the same `up` as a
 * DeviceConfig of it must therefore be validated against the model of the new version: at preview
 * that model cannot be read yet (the version is not switched until the Device is updated), so its
 * validation waits for the write; once the Device was updated, the model is read again.
 */

const applied = new Map<string, string>();
const pending = new Map<string, string>();

/** A Device's diff found that `deviceId` will switch to `version` in this deployment. */
export function expectTslVersion(deviceId: string, version: string): void {
  if (applied.get(deviceId) !== version) pending.set(deviceId, version);
}

/** A Device's create or update set `deviceId` to `version`. */
export function tslVersionApplied(deviceId: string, version: string): void {
  applied.set(deviceId, version);
  pending.delete(deviceId);
}

/** The version `deviceId` is about to switch to, when that has not happened yet in this deployment. */
export function pendingTslVersion(deviceId: string): string | undefined {
  return pending.get(deviceId);
}

/** The key of a device's model in the model cache: the device and the version it was set to here. */
export function modelCacheKey(deviceId: string): string {
  return `${deviceId}@${applied.get(deviceId) ?? ""}`;
}

/** Forgets everything (tests). */
export function forgetTslVersions(): void {
  applied.clear();
  pending.clear();
}
