/**
 * Edits of the world that the changes share: where a declared device lives, picking by number,
 * free serial numbers and resource names, placing and removing a device, retargeting the
 * configurations. Pure functions of the world (they edit the copy a change works on).
 */
import {
  fleetKey,
  mainSerial,
  POOL_SIZE,
  type ConfigTarget,
  type DeviceDecl,
  type Front,
  type World,
} from "./world";

/** A declared device and where it lives: in a fleet (index) or as a Device resource. */
export interface Located {
  decl: DeviceDecl;
  fleet?: number;
  device?: number;
}

export function locate(world: World): Located[] {
  return [
    ...world.fleets.flatMap((f, fleet) => f.devices.map((decl) => ({ decl, fleet }))),
    ...world.devices.map((decl, device) => ({ decl, device })),
  ];
}

export function pickOf<T>(items: readonly T[], pick: number): T | undefined {
  return items.length === 0 ? undefined : items[pick % items.length];
}

export function freeSerials(world: World): string[] {
  const used = new Set(locate(world).map((l) => l.decl.sn));
  return Array.from({ length: POOL_SIZE }, (_, i) => mainSerial(i)).filter((sn) => !used.has(sn));
}

export function resourceNames(world: World): Set<string> {
  return new Set([
    ...world.fleets.map((f) => f.name),
    ...world.devices.map((d) => d.resource),
    ...world.rps.map((r) => r.resource),
    ...world.configs.map((c) => c.resource),
  ]);
}

/** A new resource name from a base and a number, or undefined when it is taken. */
export function freshName(world: World, base: string, suffix: number): string | undefined {
  const name = `${base.replace(/-r\d+$/, "")}-r${suffix}`;
  return resourceNames(world).has(name) ? undefined : name;
}

export function removeLocated(world: World, at: Located): void {
  if (at.fleet !== undefined) {
    const fleet = world.fleets[at.fleet];
    if (fleet) fleet.devices = fleet.devices.filter((d) => d.sn !== at.decl.sn);
  } else world.devices = world.devices.filter((d) => d.sn !== at.decl.sn);
}

/**
 * Puts a device into fleet `to` (an index), or as a new Device resource on `front` when `to` is
 * past the fleets.
 */
export function place(world: World, decl: DeviceDecl, to: number, front: Front): boolean {
  const slot = to % (world.fleets.length + 1);
  const fleet = world.fleets[slot];
  if (fleet) fleet.devices.push(decl);
  else {
    const resource = `dev-${decl.sn.slice(-2)}`;
    if (resourceNames(world).has(resource)) return false;
    world.devices.push({ resource, front, ...decl });
  }
  return true;
}

/** Points the configurations' targets at a fleet's new key, as a program's variable would follow. */
export function retarget(world: World, from: ConfigTarget, to: ConfigTarget): void {
  for (const config of world.configs) {
    config.targets = config.targets.map((t) =>
      ("fleet" in t && "fleet" in from && t.fleet === from.fleet) ||
      ("device" in t && "device" in from && t.device === from.device)
        ? to
        : t,
    );
  }
}

export function targetsOf(world: World): ConfigTarget[] {
  return [
    ...world.fleets.map((f) => ({ fleet: fleetKey(f) })),
    ...world.devices.map((d) => ({ device: d.resource })),
  ];
}
