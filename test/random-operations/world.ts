/**
 * The model of the random-operations harness: what a stack declares (its "world", written as
 * `world.json` for the fixed program to read) and the serial-number pools it draws from. Pure
 * data; every serial number is a sensor (`24…`) so each DeviceConfig fits the sensor's TSL model,
 * and every RPS serial number a controller (`AC…`), never a declared device.
 *
 * Each resource is declared with one of the two front-ends (`front`), and during a move split over
 * two `up`s with both (`twin`: the same name and inputs on the other front-end too, as a user adds
 * the plugin's resources beside the old ones before removing those). A fleet may sit under a
 * component parent, so two fleets of one name are two resources (their URNs differ by the parent's
 * type).
 */

import type { RegionalFleetDecl } from "./regions";

/** One device as a fleet or a Device declares it. */
export interface DeviceDecl {
  sn: string;
  name: string;
  project?: string;
  tags?: string[];
}

/** The two front-ends: dynamic resources (`pulumi-nodejs:dynamic/devplatform:*`) or the plugin (`devplatform:index:*`). */
export type Front = "dynamic" | "plugin";

/** The front-end a resource is not declared with. */
export const otherFront = (front: Front): Front => (front === "dynamic" ? "plugin" : "dynamic");

/**
 * Component parents a fleet may be declared under. Each is a component of a type of its own,
 * because a child's URN names its parents' types, not their names.
 */
export const PARENTS = ["warehouse", "office"] as const;
export type Parent = (typeof PARENTS)[number];

/** The component type of each parent, as the program declares it. */
export const PARENT_TYPES: Record<Parent, string> = {
  warehouse: "harness:site:Warehouse",
  office: "harness:site:Office",
};

/** Which front-end declares a resource. */
export interface Placement {
  front: Front;
  /**
   * Also declared, under the same name and with the same inputs, on the other front-end: the first
   * `up` of a move split over two (the new resource beside the old one).
   */
  twin?: true;
}

/** The front-ends a resource is declared with: its own, then its twin's. */
export function frontsOf(placement: Placement): Front[] {
  return placement.twin ? [placement.front, otherFront(placement.front)] : [placement.front];
}

/** A DeviceFleet resource. */
export interface FleetDecl extends Placement {
  name: string;
  /** The component it is declared under (none: the stack's root). */
  parent?: Parent;
  devices: DeviceDecl[];
  /** Stacks (`<project>/<stack>`) whose devices the fleet takes over (the second stack's, stack-names.ts). */
  takeOverFrom?: string[];
}

/** How configurations name a fleet: its name, after its parent's when it has one (`office/sensors`). */
export function fleetKey(fleet: { name: string; parent?: Parent }): string {
  return fleet.parent === undefined ? fleet.name : `${fleet.parent}/${fleet.name}`;
}

/** A Device resource: its resource name and the device. */
export interface DeviceResourceDecl extends DeviceDecl, Placement {
  resource: string;
}

/** An RpsProfile resource. */
export interface RpsDecl extends Placement {
  resource: string;
  sn: string;
  profileUrl: string;
}

/** Whose deviceIds a DeviceConfig takes: a whole fleet's (by {@link fleetKey}), or one Device resource's. */
export type ConfigTarget = { fleet: string } | { device: string };

/** The sensor properties the harness manages (all read-write in both TSL versions). */
export interface SensorProperties {
  reportInterval: number;
  temperatureUnit: 0 | 1;
  alarmThreshold: { high: number; low: number };
}

/** A DeviceConfig resource. */
export interface ConfigDecl extends Placement {
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
  /** Fleets declared with explicit providers on two applications (regions.ts); the main stack's only. */
  regional?: RegionalFleetDecl[];
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
    ...world.fleets.flatMap((f) => f.devices.map((decl) => ({ decl, owner: { fleet: fleetKey(f) } }))),
    ...world.devices.map((d) => ({ decl: d, owner: { device: d.resource } })),
  ];
}

/** The serial numbers a target names in a world. */
export function targetSerials(world: World, target: ConfigTarget): string[] {
  if ("fleet" in target)
    return world.fleets.find((f) => fleetKey(f) === target.fleet)?.devices.map((d) => d.sn) ?? [];
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
            ? world.fleets.some((f) => fleetKey(f) === t.fleet)
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

/**
 * The first world of a run: two fleets of one name under two parents, one on each front-end, a
 * Device and an RPS record on each, and a configuration on each — so that a serial number moved
 * between the fleets, and any resource moved between the front-ends, is a move of this class from
 * the first step on.
 */
export function initialWorld(): World {
  const device = (i: number, extra: Partial<DeviceDecl> = {}): DeviceDecl => ({
    sn: mainSerial(i),
    name: `device-${i}`,
    ...extra,
  });
  return normalise({
    fleets: [
      {
        name: "sensors",
        parent: "warehouse",
        front: "dynamic",
        devices: [device(0, { project: "alpha", tags: ["t1"] }), device(1), device(2)],
      },
      {
        name: "sensors",
        parent: "office",
        front: "plugin",
        devices: [device(3, { project: "beta" }), device(4, { tags: ["t2", "t3"] })],
      },
    ],
    devices: [
      { resource: "dev-5", front: "dynamic", ...device(5, { project: "alpha" }) },
      { resource: "dev-6", front: "plugin", ...device(6) },
    ],
    rps: [0, 1].map((i) => ({
      resource: `rps-${i}`,
      front: i === 0 ? ("dynamic" as const) : ("plugin" as const),
      sn: rpsSerial(i),
      profileUrl: `https://rps.example.com/profiles/${i}`,
    })),
    configs: [
      {
        resource: "config-a",
        front: "dynamic",
        targets: [{ fleet: "warehouse/sensors" }, { device: "dev-5" }],
        properties: { reportInterval: 900, temperatureUnit: 0, alarmThreshold: { high: 30, low: 2 } },
        version: "1",
        resetOnDelete: true,
      },
      {
        resource: "config-b",
        front: "plugin",
        targets: [{ fleet: "office/sensors" }],
        properties: { reportInterval: 1200, temperatureUnit: 1, alarmThreshold: { high: 35, low: 0 } },
        resetOnDelete: false,
      },
    ],
  });
}

/**
 * The second stack's first world: one fleet of its own serial numbers, of the same name and under
 * the same parent as one of the main stack's (only the stack and project tell their URNs apart).
 */
export function initialSecondWorld(): World {
  return {
    fleets: [
      {
        name: "sensors",
        parent: "warehouse",
        front: "plugin",
        devices: [0, 1, 2].map((i) => ({ sn: secondSerial(i), name: `other-${i}` })),
      },
    ],
    devices: [],
    rps: [],
    configs: [],
  };
}
