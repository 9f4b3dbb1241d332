/**
 * What must hold after every step (once its `up`s converged), checked against the platform through
 * the emulator's control API — never through the provider: the platform holds exactly what the two
 * stacks declare (devices by serial number with name, project and tags; RPS records and URLs;
 * managed property values; the version of each configured device's latest task), nothing twice;
 * the ids in each stack's state are the platform's; a device declared before and after the step
 * kept its deviceId. Each returns the violations it found, one line each, named by invariant.
 */
import type { EmulatorStateView, TaskRecord } from "../../emulator";
import { tokenOf, type Kind } from "../e2e/support/front-ends";
import type { StackExport, StackResource } from "../e2e/support/pulumi-project";
import { DEFAULT_PREFIX, INITIAL_NAMES, stackPaths, type StackNames } from "./stack-names";
import { devicesOn, regionalFleet, regionalFleetName, type Application } from "./regions";
import {
  configSerials,
  fleetKey,
  frontsOf,
  PARENT_TYPES,
  PARENTS,
  type Front,
  type Parent,
  type World,
} from "./world";

const KINDS: readonly Kind[] = ["Device", "DeviceFleet", "RpsProfile", "DeviceConfig"];
const FRONTS: readonly Front[] = ["dynamic", "plugin"];
const key = (sn: string): string => sn.toUpperCase();
const sortedTags = (tags: readonly string[] | undefined): string => JSON.stringify([...(tags ?? [])].sort());
/** An owner tag of any prefix: `<prefix><project>/<stack>@<instance>`. */
const OWNER_TAG = /^\S+\/[A-Za-z0-9_.-]+@[a-z2-7]{8}$/;
/**
 * The owner tags (less the instance) of the stacks whose worlds are checked, in their order: the
 * main stack's with its `devplatform:ownerTag` prefix, then the second stack's (stack-names.ts).
 */
export function ownerTagsOf(names: StackNames): string[] {
  const [main, second] = stackPaths(names);
  return [`${names.mainPrefix}${main}`, `${DEFAULT_PREFIX}${second}`];
}
const HARNESS_STACKS = ownerTagsOf(INITIAL_NAMES);

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** sn (upper case) → deviceId of the platform's devices. */
export function platformIds(state: EmulatorStateView): Map<string, string> {
  return new Map(state.devices.map((d) => [key(d.sn), d.deviceId]));
}

/**
 * An application's platform holds exactly the devices the worlds declare on it (regions.ts), each
 * once, with the owner tag of the stack declaring it, and on the first application exactly the
 * declared records. A violation on the second application names it after the invariant.
 */
export function platformMatches(
  state: EmulatorStateView,
  worlds: World[],
  application: Application = "first",
  owners: readonly string[] = HARNESS_STACKS,
): string[] {
  const violations: string[] = [];
  const declared = new Map(worlds.flatMap((w) => devicesOn(w, application).map((d) => [key(d.sn), d])));
  const stackOf = new Map(
    worlds.flatMap((w, i) => devicesOn(w, application).map((d) => [key(d.sn), owners[i] ?? ""])),
  );
  // An explicit provider's owner tag has the default prefix whatever the stack's `ownerTag` says.
  const regional = new Set(
    worlds.flatMap((w) => (w.regional ?? []).flatMap((f) => f.devices.map((d) => key(d.sn)))),
  );
  const seen = new Set<string>();
  for (const device of state.devices) {
    const sn = key(device.sn);
    if (seen.has(sn)) violations.push(`duplicate device: ${sn} is on the platform twice`);
    seen.add(sn);
    const want = declared.get(sn);
    if (!want) {
      violations.push(
        `platform = declared: ${sn} (deviceId ${device.deviceId}) is on the platform, declared nowhere`,
      );
      continue;
    }
    // The owner tag is the provider's, not the program's: compared apart.
    const tags = (device.tag ?? []).filter((tag) => !OWNER_TAG.test(tag));
    const got = { name: device.name, project: device.project || undefined, tags: sortedTags(tags) };
    const exp = { name: want.name, project: want.project, tags: sortedTags(want.tags) };
    if (JSON.stringify(got) !== JSON.stringify(exp))
      violations.push(
        `platform = declared: ${sn} is ${JSON.stringify(got)}, declared ${JSON.stringify(exp)}`,
      );
    const markers = (device.tag ?? []).filter((tag) => OWNER_TAG.test(tag));
    const owner = stackOf.get(sn) ?? "";
    const stack = owner.slice(owner.indexOf(":") + 1);
    const accepted = regional.has(sn)
      ? `(${escaped(owner)}|${escaped(DEFAULT_PREFIX + stack)})`
      : escaped(owner);
    // `<prefix><project>/<stack>@<instance>`: the instance is the stack's backend's (each stack here has its own).
    if (markers.length !== 1 || !new RegExp(`^${accepted}@[a-z2-7]{8}$`).test(markers[0] as string))
      violations.push(
        `owner tag: ${sn} carries ${JSON.stringify(markers)}, the stack declaring it is ${owner}`,
      );
  }
  for (const sn of declared.keys())
    if (!seen.has(sn)) violations.push(`platform = declared: ${sn} is declared but not on the platform`);

  const records = new Map(
    application === "first" ? worlds.flatMap((w) => w.rps.map((r) => [key(r.sn), r.profileUrl])) : [],
  );
  const seenRecords = new Set<string>();
  for (const record of state.rpsRecords) {
    const sn = key(record.sn);
    if (seenRecords.has(sn)) violations.push(`duplicate RPS record: ${sn}`);
    seenRecords.add(sn);
    const url = records.get(sn);
    if (url === undefined)
      violations.push(`platform = declared: RPS record ${sn} (${record.profileUrl}) declared nowhere`);
    else if (url !== record.profileUrl)
      violations.push(`platform = declared: RPS record ${sn} has ${record.profileUrl}, declared ${url}`);
  }
  for (const sn of records.keys())
    if (!seenRecords.has(sn))
      violations.push(`platform = declared: RPS record ${sn} is declared but missing`);
  return application === "first"
    ? violations
    : violations.map((v) => v.replace(/^([^:]+):/, "$1 (second application):"));
}

function latestTasks(tasks: readonly TaskRecord[]): Map<string, TaskRecord> {
  const latest = new Map<string, TaskRecord>();
  for (const task of tasks) {
    const current = latest.get(task.deviceId);
    if (!current || BigInt(task.taskId) > BigInt(current.taskId)) latest.set(task.deviceId, task);
  }
  return latest;
}

/**
 * Each configured device has the managed values; for a configuration of several devices (tasks)
 * with a `version`, its latest task carries that version.
 */
export function configurationMatches(state: EmulatorStateView, world: World): string[] {
  const violations: string[] = [];
  const byId = new Map(state.devices.map((d) => [key(d.sn), d]));
  const latest = latestTasks(state.tasks);
  for (const config of world.configs) {
    const serials = configSerials(world, config);
    const want = config.properties;
    for (const sn of serials) {
      const device = byId.get(key(sn));
      if (!device) continue; // reported by platformMatches
      const props = device.properties as Record<string, unknown>;
      const alarm = (props.alarmThreshold ?? {}) as Record<string, unknown>;
      const got = {
        reportInterval: props.reportInterval,
        temperatureUnit: props.temperatureUnit,
        high: alarm["alarmThreshold.high"],
        low: alarm["alarmThreshold.low"],
      };
      const exp = {
        reportInterval: want.reportInterval,
        temperatureUnit: want.temperatureUnit,
        high: want.alarmThreshold.high,
        low: want.alarmThreshold.low,
      };
      if (JSON.stringify(got) !== JSON.stringify(exp)) {
        violations.push(
          `managed values: ${sn} (${config.resource}) has ${JSON.stringify(got)}, declared ${JSON.stringify(exp)}`,
        );
      }
      if (config.version !== undefined && serials.length > 1) {
        const task = latest.get(device.deviceId);
        if (task?.config.version !== config.version) {
          violations.push(
            `versions: ${sn} (${config.resource}) latest task ${task?.taskId ?? "none"} has version ${task?.config.version ?? "none"}, declared ${config.version}`,
          );
        }
      }
    }
  }
  return violations;
}

function recordOf(value: unknown): Record<string, string> {
  const parsed: unknown = typeof value === "string" ? JSON.parse(value) : value;
  return parsed && typeof parsed === "object" ? (parsed as Record<string, string>) : {};
}

/** One of this package's resources in a stack's state: its front-end, kind, parent and name. */
interface InState {
  front: Front;
  kind: Kind;
  parent?: Parent;
  name: string;
  resource: StackResource;
}

/** Reads a state resource of either front-end; undefined for any other resource. */
function inState(resource: StackResource): InState | undefined {
  const [front, kind] =
    FRONTS.flatMap((f) =>
      KINDS.filter((k) => tokenOf(f, k) === resource.type).map((k) => [f, k] as const),
    )[0] ?? [];
  if (!front || !kind) return undefined;
  // urn:pulumi:<stack>::<project>::<parent types $ type>::<name>: a child's URN names its parents' types.
  const [, , qualifiedType = "", ...rest] = resource.urn.split("::");
  const parent = PARENTS.find((p) => qualifiedType.startsWith(`${PARENT_TYPES[p]}$`));
  return {
    front,
    kind,
    ...(parent ? { parent } : {}),
    name: rest.join("::"),
    resource,
  };
}

/** How a resource is named in the comparison of state with the declaration. */
const label = (front: Front, kind: Kind, key: string): string => `${front} ${kind} ${key}`;

/** Every resource the world declares, each twin twice (once per front-end). */
function declaredResources(world: World): string[] {
  return [
    ...world.fleets.flatMap((f) => frontsOf(f).map((front) => label(front, "DeviceFleet", fleetKey(f)))),
    ...world.devices.flatMap((d) => frontsOf(d).map((front) => label(front, "Device", d.resource))),
    ...world.rps.flatMap((r) => frontsOf(r).map((front) => label(front, "RpsProfile", r.resource))),
    ...world.configs.flatMap((c) => frontsOf(c).map((front) => label(front, "DeviceConfig", c.resource))),
    ...(world.regional ?? []).map((f) => label("plugin", "DeviceFleet", regionalFleetName(f.region))),
  ];
}

/**
 * The ids in a stack's state are the platform's, and its resources are the declared ones, each on
 * the front-end and under the parent the world gives it.
 */
export function stateMatches(
  stack: StackExport,
  world: World,
  ids: Map<string, string>,
  stackLabel: string,
): string[] {
  const violations: string[] = [];
  const ours = (stack.deployment.resources ?? []).flatMap((r) => inState(r) ?? []);
  const keyOf = (r: InState) => fleetKey(r);
  for (const r of ours) {
    const what = `${stackLabel} ${label(r.front, r.kind, keyOf(r))}`;
    const { outputs, id } = r.resource;
    if (r.kind === "Device") {
      const sn = key(String(outputs?.sn ?? ""));
      if (ids.get(sn) !== id)
        violations.push(`state ids: ${what} has id ${id}, platform ${ids.get(sn) ?? "none"}`);
    } else if (r.kind === "DeviceFleet") {
      const inStateIds = recordOf(outputs?.deviceIds);
      const fleet = world.fleets.find((f) => fleetKey(f) === keyOf(r)) ?? regionalFleet(world, keyOf(r));
      const want = new Set((fleet?.devices ?? []).map((d) => key(d.sn)));
      for (const [sn, deviceId] of Object.entries(inStateIds)) {
        if (ids.get(key(sn)) !== deviceId)
          violations.push(`state ids: ${what} has ${sn}=${deviceId}, platform ${ids.get(key(sn)) ?? "none"}`);
        if (!want.delete(key(sn))) violations.push(`state ids: ${what} holds undeclared ${sn}`);
      }
      for (const sn of want) violations.push(`state ids: ${what} lacks declared ${sn}`);
    } else if (r.kind === "DeviceConfig") {
      const config = world.configs.find((c) => c.resource === r.name);
      const inStateIds = Array.isArray(outputs?.deviceIds) ? (outputs.deviceIds as string[]) : [];
      const want = config
        ? configSerials(world, config).map((sn) => ids.get(key(sn)) ?? `missing ${sn}`)
        : [];
      if (JSON.stringify([...inStateIds].sort()) !== JSON.stringify([...want].sort())) {
        violations.push(
          `state ids: ${what} has deviceIds ${JSON.stringify(inStateIds)}, platform ${JSON.stringify(want)}`,
        );
      }
    }
  }
  const extra = ours.map((r) => label(r.front, r.kind, keyOf(r)));
  const missing: string[] = [];
  for (const declared of declaredResources(world)) {
    const at = extra.indexOf(declared);
    if (at === -1) missing.push(declared);
    else extra.splice(at, 1);
  }
  if (extra.length > 0 || missing.length > 0)
    violations.push(
      `state = declared: ${stackLabel} state has undeclared [${extra.sort().join(", ")}], lacks declared [${missing.sort().join(", ")}]`,
    );
  return violations;
}

/** A device declared before and after the step kept its deviceId (unless deleted out of band). */
export function idsKept(
  before: Map<string, string>,
  after: Map<string, string>,
  exempt: ReadonlySet<string>,
): string[] {
  const violations: string[] = [];
  for (const [sn, id] of before) {
    const now = after.get(sn);
    if (now !== undefined && now !== id && !exempt.has(sn))
      violations.push(`deviceId kept: ${sn} was deviceId ${id}, is now ${now}`);
  }
  return violations;
}
