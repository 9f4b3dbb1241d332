/**
 * The one fixed Pulumi program of the harness: it reads `world.json` (written by the harness before
 * each step) and declares exactly that — DeviceFleets (at the root or under a component parent),
 * Devices, RpsProfiles and DeviceConfigs, each under the resource name the world gives it, with no
 * aliases: a renamed resource is a new name. Each is declared with the front-end the world gives
 * it — a dynamic resource of this package, or the plugin's `devplatform:index:*` resource as a
 * TypeScript program without a generated SDK declares it (`pulumi.CustomResource` with the token;
 * Pulumi.yaml names the installed plugin) — and a twin with both, under one name. While the world
 * has regional fleets, it declares two explicit providers of the plugin on two applications and each
 * region's fleet with its own (regions.ts). It also declares a dynamic resource of its own, as
 * programs do, whose provider host is not this package's.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { PARENT_TYPES, type World } from "./world";

export const WORLD_FILE = "world.json";
/** Each region's provider inputs (baseUrl, clientId, clientSecret), written once per stack. */
export const APPLICATIONS_FILE = "applications.json";

/** `index.ts` of every harness stack. */
export const HARNESS_PROGRAM = `import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as devplatform from "pulumi-devplatform";

type Front = "dynamic" | "plugin";
interface Placement { front: Front; twin?: true }
interface DeviceDecl { sn: string; name: string; project?: string; tags?: string[] }
type Target = { fleet: string } | { device: string };
interface World {
  fleets: (Placement & { name: string; parent?: string; devices: DeviceDecl[]; takeOverFrom?: string[] })[];
  devices: (Placement & DeviceDecl & { resource: string })[];
  rps: (Placement & { resource: string; sn: string; profileUrl: string })[];
  configs: (Placement & {
    resource: string;
    targets: Target[];
    properties: Record<string, devplatform.ConfigValue>;
    version?: string;
    resetOnDelete: boolean;
  })[];
  regional?: { region: string; maxRemovals: number; devices: DeviceDecl[] }[];
}
const world: World = JSON.parse(readFileSync(__dirname + "/${WORLD_FILE}", "utf8"));

/** A plugin resource: CustomResource is abstract in the SDK's types, hence the subclass. */
class PluginResource extends pulumi.CustomResource {
  constructor(kind: string, name: string, props: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
    super("devplatform:index:" + kind, name, props, opts);
  }
}
/** An output of a plugin resource, read through the input of its name left undefined. */
function outputOf<T>(resource: pulumi.CustomResource, name: string): pulumi.Output<T> {
  return (resource as unknown as Record<string, pulumi.Output<T>>)[name] as pulumi.Output<T>;
}
/** The front-ends a resource is declared with: its own first (the one others take outputs from). */
function frontsOf(p: Placement): Front[] {
  return p.twin ? [p.front, p.front === "dynamic" ? "plugin" : "dynamic"] : [p.front];
}

const parentTypes: Record<string, string> = ${JSON.stringify(PARENT_TYPES)};
const parents = new Map(
  Object.entries(parentTypes).map(([name, type]) => [name, new pulumi.ComponentResource(type, name, {})]),
);

const fleetIds = new Map<string, pulumi.Output<string[]>>();
for (const { name, parent, devices, takeOverFrom, ...placement } of world.fleets) {
  const opts = parent === undefined ? {} : { parent: parents.get(parent) };
  const args = takeOverFrom === undefined ? { devices } : { devices, takeOverFrom };
  const ids = frontsOf(placement).map((front) =>
    front === "dynamic"
      ? new devplatform.DeviceFleet(name, args, opts).deviceIds
      : outputOf<Record<string, string>>(
          new PluginResource("DeviceFleet", name, { ...args, deviceIds: undefined }, opts),
          "deviceIds",
        ),
  );
  fleetIds.set(parent === undefined ? name : parent + "/" + name, ids[0]!.apply((m) => Object.values(m)));
}
const deviceIds = new Map<string, pulumi.Output<string[]>>();
for (const { resource, front, twin, ...args } of world.devices) {
  const ids = frontsOf({ front, twin }).map((f) =>
    f === "dynamic"
      ? new devplatform.Device(resource, args).deviceId
      : outputOf<string>(new PluginResource("Device", resource, { ...args, deviceId: undefined }), "deviceId"),
  );
  deviceIds.set(resource, ids[0]!.apply((id) => [id]));
}
for (const { resource, front, twin, ...args } of world.rps) {
  for (const f of frontsOf({ front, twin })) {
    if (f === "dynamic") new devplatform.RpsProfile(resource, args);
    else new PluginResource("RpsProfile", resource, args);
  }
}
for (const config of world.configs) {
  const ids = config.targets.map((t) => ("fleet" in t ? fleetIds.get(t.fleet) : deviceIds.get(t.device))!);
  const args = {
    deviceIds: pulumi.all(ids).apply((lists) => lists.flat()),
    properties: config.properties,
    version: config.version,
    resetOnDelete: config.resetOnDelete,
  };
  for (const f of frontsOf(config)) {
    if (f === "dynamic") new devplatform.DeviceConfig(config.resource, args);
    else new PluginResource("DeviceConfig", config.resource, args);
  }
}

// Explicit providers on two applications (regions.ts), declared while a regional fleet is: each
// region's fleet with its own, all three provider instances (these and the default) of one plugin.
class RegionProvider extends pulumi.ProviderResource {
  constructor(name: string, props: pulumi.Inputs) {
    super("devplatform", name, props);
  }
}
if ((world.regional ?? []).length > 0) {
  const applications: Record<string, { baseUrl: string; clientId: string; clientSecret: string }> =
    JSON.parse(readFileSync(__dirname + "/${APPLICATIONS_FILE}", "utf8"));
  const providers = new Map(
    Object.entries(applications).map(([region, app]) => [
      region,
      new RegionProvider(region, { ...app, clientSecret: pulumi.secret(app.clientSecret) }),
    ]),
  );
  for (const { region, maxRemovals, devices } of world.regional ?? []) {
    const fleet = { devices, maxRemovals, deviceIds: undefined };
    new PluginResource("DeviceFleet", region + "-site", fleet, { provider: providers.get(region) });
  }
}

// A dynamic resource of the program's own: Pulumi's dynamic provider host starts for it in every
// deployment, also when no dynamic resource of this package is declared; it never joins the
// one-owner record, and no delete may wait for it.
const ownProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: Record<string, unknown>) {
    return { id: "harness-own", outs: inputs };
  },
};
new pulumi.dynamic.Resource(ownProvider, "harness-own", { label: "the program's own" });
`;

/** Writes each region's provider inputs, which a stack's program reads while it declares a regional fleet. */
export function writeApplications(
  projectDir: string,
  applications: Record<string, { baseUrl: string; clientId: string; clientSecret: string }>,
): void {
  writeFileSync(path.join(projectDir, APPLICATIONS_FILE), JSON.stringify(applications, null, 2), {
    mode: 0o600,
  });
}

/** Writes the world a stack's program reads at its next run. */
export function writeWorld(projectDir: string, world: World): void {
  writeFileSync(path.join(projectDir, WORLD_FILE), JSON.stringify(world, null, 2));
}
