/**
 * Explicit providers on two applications. Besides what its default provider manages, the main
 * stack's world may declare one fleet per region, each with an explicit provider of the plugin:
 * `eu-site` with the provider `eu` on the stacks' own application, `us-site` with the provider `us`
 * on a second application (an emulator of its own, its own client), two devices each, with
 * `maxRemovals`.
 *
 * Their life follows the step's index, not the seed's draws (so a seed's steps stay what they
 * were, as with record-leftovers.ts): declared at a step whose index is 1 modulo
 * {@link REGIONS_EVERY}; at the next step that runs, the harness first tries an `up` that drops
 * `us-site` alone while `eu-site` stays — refused (two devices, `maxRemovals` 1: the program still
 * runs, whatever application a provider serves), no write on either application — then the step
 * raises both fleets' `maxRemovals` to 2 and renames a device of each; at the next, both fleets go
 * with their providers.
 */
import { declaredDevices, type DeviceDecl, type World } from "./world";

export const REGIONS = ["eu", "us"] as const;
export type Region = (typeof REGIONS)[number];

/** The two applications: the stacks' own (the default provider's and `eu`'s), and `us`'s. */
export type Application = "first" | "second";

/** A fleet declared with the explicit provider of its region. */
export interface RegionalFleetDecl {
  region: Region;
  maxRemovals: number;
  devices: DeviceDecl[];
}

/** Regional fleets are declared at the steps whose index is 1 modulo this. */
export const REGIONS_EVERY = 8;

/** The second application's client (the emulator `npm run soak` starts for it has these). */
export const SECOND_APPLICATION = { clientId: "harness-us", clientSecret: "harness-us-s3cret" };

/** The resource name of a region's fleet. */
export const regionalFleetName = (region: Region): string => `${region}-site`;

/** The serial numbers of a region's devices: sensors, apart from both stacks' pools. */
export const regionalSerial = (region: Region, i: number): string =>
  `2400000${region === "eu" ? "E" : "F"}${i.toString(16).toUpperCase().padStart(4, "0")}`;

/** The application a region's provider serves. */
export const applicationOf = (region: Region): Application => (region === "eu" ? "first" : "second");

/** The regional fleets after step `index`, from those of the world before it. */
export function nextRegional(before: World, index: number): RegionalFleetDecl[] {
  const current = before.regional ?? [];
  if (current.length === 0) {
    if (index % REGIONS_EVERY !== 1) return [];
    return REGIONS.map((region) => ({
      region,
      maxRemovals: 1,
      devices: [0, 1].map((i) => ({ sn: regionalSerial(region, i), name: `${region}-${i}` })),
    }));
  }
  if (current.some((f) => f.maxRemovals < 2)) {
    return current.map((f) => ({
      ...f,
      maxRemovals: 2,
      devices: f.devices.map((d, i) => (i === 0 ? { ...d, name: `${d.name}-renamed` } : d)),
    }));
  }
  return [];
}

/**
 * The world of the `up` tried before the step from `before` to `after`, which must be refused at
 * `maxRemovals`: `before` without `us-site`. Undefined when the step tries none.
 */
export function refusedRegionalDrop(before: World, after: World): World | undefined {
  const guarded = (before.regional ?? []).some((f) => f.maxRemovals < 2);
  const raised = (after.regional ?? []).some((f) => f.maxRemovals >= 2);
  if (!guarded || !raised) return undefined;
  return { ...before, regional: (before.regional ?? []).filter((f) => f.region !== "us") };
}

/** The devices a world declares on an application (the default provider's on the first). */
export function devicesOn(world: World, application: Application): DeviceDecl[] {
  const regional = (world.regional ?? [])
    .filter((f) => applicationOf(f.region) === application)
    .flatMap((f) => f.devices);
  return application === "first"
    ? [...declaredDevices(world).map(({ decl }) => decl), ...regional]
    : regional;
}

/** The regional fleet of a resource name in a world, if any. */
export function regionalFleet(world: World, name: string): RegionalFleetDecl | undefined {
  return (world.regional ?? []).find((f) => regionalFleetName(f.region) === name);
}
