/**
 * Changes to a declaration (as data in change.ts, so a sequence prints, replays and shrinks) as pure
 * functions of the world. Choices are numbers reduced modulo what the world holds when the change
 * runs; a change that does not apply to the world (nothing to rename, a name taken) returns
 * `undefined`, and the step is skipped as a failed precondition.
 */
import {
  cloneWorld,
  configSerials,
  fleetKey,
  normalise,
  otherFront,
  PARENTS,
  POOL_SIZE,
  rpsSerial,
  type DeviceDecl,
  type Parent,
  type Placement,
  type World,
} from "./world";
import {
  freeSerials,
  freshName,
  locate,
  pickOf,
  place,
  removeLocated,
  resourceNames,
  retarget,
  targetsOf,
} from "./world-edits";
import type { Change, ResourceKind } from "./change";

export { describeChange, type Change, type ResourceKind } from "./change";

/** A fleet's possible parents: the root (undefined), then each component. */
const PARENT_CHOICES: (Parent | undefined)[] = [undefined, ...PARENTS];

/** The resources of a kind, as placements (those a predicate keeps). */
function placementsOf(
  world: World,
  resource: ResourceKind,
  keep: (p: Placement) => boolean = () => true,
): Placement[] {
  const all: Placement[] =
    resource === "fleet"
      ? world.fleets
      : resource === "device"
        ? world.devices
        : resource === "rps"
          ? world.rps
          : world.configs;
  return all.filter(keep);
}

/** The front-end moves: in one `up`, or split over two. False when the change does not apply. */
function moveFront(
  world: World,
  change: Extract<Change, { kind: "move-front" | "twin" | "finish-move" }>,
): boolean {
  // The second up of a split move picks among the resources half-way through one, of any kind.
  const candidates =
    change.kind === "finish-move"
      ? (["fleet", "device", "rps", "config"] as const).flatMap((kind) =>
          placementsOf(world, kind, (p) => p.twin === true),
        )
      : placementsOf(world, change.resource);
  const placed = pickOf(candidates, change.pick);
  if (!placed) return false;
  switch (change.kind) {
    case "move-front":
      if (placed.twin) return false;
      placed.front = otherFront(placed.front);
      return true;
    case "twin":
      // A device declared by two resources at once is refused at preview (one serial number, one
      // resource): only RPS records and configurations can be split over two ups.
      if (placed.twin || change.resource === "fleet" || change.resource === "device") return false;
      placed.twin = true;
      return true;
    case "finish-move":
      if (!placed.twin) return false;
      delete placed.twin;
      if (change.keep === "new") placed.front = otherFront(placed.front);
      return true;
  }
}

/** Fleet changes of the same-named-fleets kind: another parent, a new fleet, a fleet removed. */
function changeFleets(
  world: World,
  change: Extract<Change, { kind: "reparent" | "add-fleet" | "remove-fleet" }>,
): boolean {
  const taken = (name: string, parent: Parent | undefined) =>
    world.fleets.some((f) => fleetKey(f) === fleetKey({ name, ...(parent ? { parent } : {}) }));
  switch (change.kind) {
    case "reparent": {
      const fleet = pickOf(world.fleets, change.pick);
      const parent = PARENT_CHOICES[change.parent % PARENT_CHOICES.length];
      if (!fleet || parent === fleet.parent || taken(fleet.name, parent)) return false;
      const from = fleetKey(fleet);
      if (parent === undefined) delete fleet.parent;
      else fleet.parent = parent;
      retarget(world, { fleet: from }, { fleet: fleetKey(fleet) });
      return true;
    }
    case "add-fleet": {
      const fresh = `fleet-n${change.name}`;
      const names = [...new Set(world.fleets.map((f) => f.name)), fresh];
      const name = names[change.name % names.length] as string;
      const parent = PARENT_CHOICES[change.parent % PARENT_CHOICES.length];
      const sn = pickOf(freeSerials(world), change.sn);
      if (!sn || taken(name, parent) || (name === fresh && resourceNames(world).has(fresh))) return false;
      world.fleets.push({
        name,
        ...(parent ? { parent } : {}),
        front: change.front,
        devices: [{ sn, name: `device-f${change.sn}` }],
      });
      return true;
    }
    case "remove-fleet": {
      const fleet = pickOf(world.fleets, change.pick);
      if (!fleet) return false;
      world.fleets = world.fleets.filter((f) => f !== fleet);
      return true;
    }
  }
}

function renameResource(world: World, change: Extract<Change, { kind: "rename-resource" }>): boolean {
  const rename = (list: { name?: string; resource?: string }[], key: "name" | "resource") => {
    const item = pickOf(list, change.pick);
    const old = item?.[key];
    const name = old === undefined ? undefined : freshName(world, old, change.suffix);
    if (!item || old === undefined || name === undefined) return undefined;
    item[key] = name;
    return { old, name };
  };
  if (change.resource === "fleet") {
    const fleet = pickOf(world.fleets, change.pick);
    const from = fleet && fleetKey(fleet);
    if (!fleet || !from || !rename(world.fleets, "name")) return false;
    // The configurations follow: they name the resource, as a program's variable would.
    retarget(world, { fleet: from }, { fleet: fleetKey(fleet) });
    return true;
  }
  if (change.resource === "device") {
    const renamed = rename(world.devices, "resource");
    if (!renamed) return false;
    retarget(world, { device: renamed.old }, { device: renamed.name });
    return true;
  }
  return rename(change.resource === "rps" ? world.rps : world.configs, "resource") !== undefined;
}

/** Applies a change to a copy of the world; undefined when it does not apply. */
export function applyChange(before: World, change: Change): World | undefined {
  const world = cloneWorld(before);
  const located = locate(world);
  const at = "pick" in change ? pickOf(located, change.pick) : undefined;
  switch (change.kind) {
    case "add-device": {
      const sn = pickOf(freeSerials(world), change.sn);
      const front = change.front ?? "dynamic";
      if (!sn || !place(world, { sn, name: `device-n${change.name}` }, change.into, front)) return undefined;
      break;
    }
    case "remove-device":
      if (!at) return undefined;
      removeLocated(world, at);
      break;
    case "rename-device":
    case "retag":
    case "reproject":
      if (!at) return undefined;
      if (change.kind === "rename-device") at.decl.name = `device-n${change.name}`;
      else if (change.kind === "retag") at.decl.tags = [...change.tags];
      else if (change.project === null) delete at.decl.project;
      else at.decl.project = change.project;
      break;
    case "move-sn": {
      if (!at) return undefined;
      removeLocated(world, at);
      // A Device's resource name stays behind: the device moves, not the resource.
      const { sn, name, project, tags } = at.decl;
      const decl: DeviceDecl = {
        sn,
        name,
        ...(project === undefined ? {} : { project }),
        ...(tags ? { tags } : {}),
      };
      if (!place(world, decl, change.to, change.front ?? "dynamic")) return undefined;
      break;
    }
    case "rename-resource":
      if (!renameResource(world, change)) return undefined;
      break;
    case "move-front":
    case "twin":
    case "finish-move":
      if (!moveFront(world, change)) return undefined;
      break;
    case "reparent":
    case "add-fleet":
    case "remove-fleet":
      if (!changeFleets(world, change)) return undefined;
      break;
    case "namesake-move": {
      // Devices of fleets that have a namesake (another fleet of the same name, another parent).
      const movable = located.filter(({ fleet }) => {
        const from = fleet === undefined ? undefined : world.fleets[fleet];
        return from !== undefined && world.fleets.some((f) => f !== from && f.name === from.name);
      });
      const moving = pickOf(movable, change.pick);
      const from = moving?.fleet === undefined ? undefined : world.fleets[moving.fleet];
      const to = world.fleets.find((f) => f !== from && f.name === from?.name);
      if (!moving || !to) return undefined;
      removeLocated(world, moving);
      to.devices.push(moving.decl);
      break;
    }
    default:
      return applyConfigOrRpsChange(world, change);
  }
  return normalise(world);
}

function applyConfigOrRpsChange(world: World, change: Change): World | undefined {
  const config = "pick" in change ? pickOf(world.configs, change.pick) : undefined;
  const rps = "pick" in change ? pickOf(world.rps, change.pick) : undefined;
  switch (change.kind) {
    case "set-values":
      if (!config) return undefined;
      config.properties = change.properties;
      break;
    case "bump-version":
      if (!config) return undefined;
      config.version = String(Number(config.version ?? "0") + 1);
      break;
    case "split-config": {
      const name = config && freshName(world, config.resource, change.suffix);
      if (!config || !name || config.targets.length < 2) return undefined;
      const half = Math.ceil(config.targets.length / 2);
      world.configs.push({ ...structuredClone(config), resource: name, targets: config.targets.slice(half) });
      config.targets = config.targets.slice(0, half);
      break;
    }
    case "merge-configs": {
      const other = pickOf(world.configs, change.with);
      if (!config || !other || other === config) return undefined;
      config.targets.push(...other.targets);
      world.configs = world.configs.filter((c) => c !== other);
      break;
    }
    case "add-config": {
      const name = freshName(world, "config", change.suffix);
      const all = targetsOf(world);
      const targets = [...new Set(change.targets.map((t) => t % Math.max(1, all.length)))].flatMap((i) =>
        all[i] ? [all[i]] : [],
      );
      if (!name || targets.length === 0) return undefined;
      // Targets already configured are taken from their configuration (normalise keeps the first).
      world.configs.unshift({
        resource: name,
        front: change.front ?? "dynamic",
        targets,
        properties: change.properties,
        resetOnDelete: change.resetOnDelete,
      });
      break;
    }
    case "remove-config":
      if (!config) return undefined;
      world.configs = world.configs.filter((c) => c !== config);
      break;
    case "add-rps": {
      const sn = rpsSerial(change.sn % POOL_SIZE);
      const name = `rps-${sn.slice(-2)}`;
      if (world.rps.some((r) => r.sn === sn) || resourceNames(world).has(name)) return undefined;
      world.rps.push({
        resource: name,
        front: change.front ?? "dynamic",
        sn,
        profileUrl: `https://rps.example.com/profiles/${change.url}`,
      });
      break;
    }
    case "remove-rps":
      if (!rps) return undefined;
      world.rps = world.rps.filter((r) => r !== rps);
      break;
    case "change-rps-url":
      if (!rps) return undefined;
      rps.profileUrl = `https://rps.example.com/profiles/${change.url}`;
      break;
    default:
      return undefined;
  }
  const normalised = normalise(world);
  return normalised.configs.every((c) => configSerials(normalised, c).length > 0) ? normalised : undefined;
}
