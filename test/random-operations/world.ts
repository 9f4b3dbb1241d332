/**
 * The model of the random-operations harness: what a stack declares (its "world", written as
 * `world.json` for the fixed program to read) and the serial-number pools it draws from. Pure
 * data; every serial number is a sensor (`24…`) so each DeviceConfig fits the sensor's TSL model,
 * and every RPS serial number a controller (`AC…`), never a declared device.
 */

/** One device as a fleet or a Device declares it. */
export interface DeviceDecl {
  sn: string;
  name: string;
  project?: string;
  tags?: string[];
}

/** A DeviceFleet resource. */
export interface FleetDecl {
  name: string;
  devices: DeviceDecl[];
}

/** A Device resource: its resource name and the device. */
export interface DeviceResourceDecl extends DeviceDecl {
  resource: string;
}

/** An RpsProfile resource. */
export interface RpsDecl {
  resource: string;
  sn: string;
  profileUrl: string;
}

/** Whose deviceIds a DeviceConfig takes: a whole fleet's, or one Device resource's. */
export type ConfigTarget = { fleet: string } | { device: string };

/** The sensor properties the harness manages (all read-write in both TSL versions). */
export interface SensorProperties {
  reportInterval: number;
  temperatureUnit: 0 | 1;
  alarmThreshold: { high: number; low: number };
}

/** A DeviceConfig resource. */
export interface ConfigDecl {
  resource: string;
  targets: ConfigTarget[];
  properties: SensorProperties;
  version?: string;
  resetOnDelete: boolean;
}

/** What one stack's program declares. */
export interface World {
  fleets: FleetDecl[];
  devices: DeviceResourceDecl[];
  rps: RpsDecl[];
  configs: ConfigDecl[];
}

/** Serial numbers of the main stack's devices, the second stack's devices and the RPS records. */
export const POOL_SIZE = 24;
export const mainSerial = (i: number): string => `2400000A${i.toString(16).toUpperCase().padStart(4, "0")}`;
export const secondSerial = (i: number): string => `2400000B${i.toString(16).toUpperCase().padStart(4, "0")}`;
export const rpsSerial = (i: number): string => `AC00000C${i.toString(16).toUpperCase().padStart(4, "0")}`;

export const PROJECTS = ["alpha", "beta"] as const;
export const TAGS = ["t1", "t2", "t3"] as const;

/** Every device a world declares, with who declares it. */
export function declaredDevices(world: World): { decl: DeviceDecl; owner: ConfigTarget }[] {
  return [
    ...world.fleets.flatMap((f) => f.devices.map((decl) => ({ decl, owner: { fleet: f.name } }))),
    ...world.devices.map((d) => ({ decl: d, owner: { device: d.resource } })),
  ];
}

/** The serial numbers a target names in a world. */
export function targetSerials(world: World, target: ConfigTarget): string[] {
  if ("fleet" in target)
    return world.fleets.find((f) => f.name === target.fleet)?.devices.map((d) => d.sn) ?? [];
  const device = world.devices.find((d) => d.resource === target.device);
  return device ? [device.sn] : [];
}

/** The serial numbers a DeviceConfig configures. */
export function configSerials(world: World, config: ConfigDecl): string[] {
  return config.targets.flatMap((t) => targetSerials(world, t));
}

const sameTarget = (a: ConfigTarget, b: ConfigTarget): boolean =>
  ("fleet" in a && "fleet" in b && a.fleet === b.fleet) ||
  ("device" in a && "device" in b && a.device === b.device);

/**
 * Keeps a world valid after an operation: a config names only targets that exist, each target in at
 * most one config (so each device has at most one configuration owner), and no config without devices.
 */
export function normalise(world: World): World {
  const taken: ConfigTarget[] = [];
  const configs = world.configs
    .map((c) => {
      const targets = c.targets.filter((t) => {
        const exists =
          "fleet" in t
            ? world.fleets.some((f) => f.name === t.fleet)
            : world.devices.some((d) => d.resource === t.device);
        if (!exists || taken.some((x) => sameTarget(x, t))) return false;
        taken.push(t);
        return true;
      });
      return { ...c, targets };
    })
    .filter((c) => configSerials(world, c).length > 0);
  return { ...world, configs };
}

/** A deep copy, so operations never share arrays with an earlier world. */
export function cloneWorld(world: World): World {
  return structuredClone(world);
}

/** The first world of a run: two fleets, two Devices, two RPS records, two configurations. */
export function initialWorld(): World {
  const device = (i: number, extra: Partial<DeviceDecl> = {}): DeviceDecl => ({
    sn: mainSerial(i),
    name: `device-${i}`,
    ...extra,
  });
  return normalise({
    fleets: [
      { name: "fleet-a", devices: [device(0, { project: "alpha", tags: ["t1"] }), device(1), device(2)] },
      { name: "fleet-b", devices: [device(3, { project: "beta" }), device(4, { tags: ["t2", "t3"] })] },
    ],
    devices: [
      { resource: "dev-5", ...device(5, { project: "alpha" }) },
      { resource: "dev-6", ...device(6) },
    ],
    rps: [0, 1].map((i) => ({
      resource: `rps-${i}`,
      sn: rpsSerial(i),
      profileUrl: `https://rps.example.com/profiles/${i}`,
    })),
    configs: [
      {
        resource: "config-a",
        targets: [{ fleet: "fleet-a" }, { device: "dev-5" }],
        properties: { reportInterval: 900, temperatureUnit: 0, alarmThreshold: { high: 30, low: 2 } },
        version: "1",
        resetOnDelete: true,
      },
      {
        resource: "config-b",
        targets: [{ fleet: "fleet-b" }],
        properties: { reportInterval: 1200, temperatureUnit: 1, alarmThreshold: { high: 35, low: 0 } },
        resetOnDelete: false,
      },
    ],
  });
}

/** The second stack's first world: one fleet of its own serial numbers. */
export function initialSecondWorld(): World {
  return {
    fleets: [
      { name: "other-fleet", devices: [0, 1, 2].map((i) => ({ sn: secondSerial(i), name: `other-${i}` })) },
    ],
    devices: [],
    rps: [],
    configs: [],
  };
}
