/**
 * Moves within one stack: a device one resource stops declaring and another starts (from a fleet
 * to another fleet when an inventory line changes group, from a Device to a fleet). The provider
 * keeps such a device — the removal skips it, since another resource of the deployment now manages
 * it, and the add adopts it by serial number with its deviceId and configuration — so the review
 * shows one move with the fields that change, not a removal under the banner and an add.
 */
import { changedFields, UPDATABLE_FIELDS } from "../../provider/device/desired";
import type { DeviceChange } from "./review-model";

/** The devices with each removal that another resource adds again turned into one move. */
export function pairMoves(devices: readonly DeviceChange[]): DeviceChange[] {
  const added = new Map<string, DeviceChange>();
  for (const device of devices) if (device.action === "add") added.set(device.sn.toUpperCase(), device);
  const moved = new Map<string, DeviceChange>();
  for (const device of devices) {
    const to = device.action === "remove" ? added.get(device.sn.toUpperCase()) : undefined;
    if (to === undefined || to.resource === device.resource || !sameApplication(device, to)) continue;
    moved.set(device.sn.toUpperCase(), moveOf(device, to));
  }
  if (moved.size === 0) return [...devices];
  const result: DeviceChange[] = [];
  for (const device of devices) {
    const move = moved.get(device.sn.toUpperCase());
    if (move === undefined) result.push(device);
    else if (device.action === "add") result.push(move);
  }
  return result;
}

/**
 * Whether both resources certainly reach one application — the one-owner record that keeps a
 * moved device is the application's: through one provider, or through default providers (the
 * dynamic resources' and the plugin's), which both read the stack's `devplatform:` settings. Two
 * explicit providers may name two applications: a removal from one and an add to the other are a
 * delete and an add, and are shown so.
 */
function sameApplication(a: DeviceChange, b: DeviceChange): boolean {
  return (a.provider ?? "") === (b.provider ?? "") || (isDefault(a.provider) && isDefault(b.provider));
}

/** A default provider's reference (`…::pulumi:providers:devplatform::default_0_1_0::<id>`), or none. */
function isDefault(provider: string | undefined): boolean {
  return !provider || /::pulumi:providers:(?:devplatform|pulumi-nodejs)::default(?:_\w+)?::/.test(provider);
}

function moveOf(from: DeviceChange, to: DeviceChange): DeviceChange {
  const [before, after] = [from.values ?? {}, to.values ?? {}];
  const fields = changedFields(before, after, UPDATABLE_FIELDS).map((field) => ({
    field,
    before: before[field],
    after: after[field],
  }));
  return { sn: to.sn, action: "move", resource: to.resource, from: from.resource, fields };
}
