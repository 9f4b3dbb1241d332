/**
 * THE list of the package's resource kinds and functions. Each kind's folder defines it
 * (`provider/<kind>/provider.ts`: check, diff, create/read/update/delete, import, schema); both
 * front-ends, the schema's resources and type tokens, and the dynamic resources' provider modules
 * derive from this list. Adding a kind is its folder and one line here.
 */
import type { KindDefinition } from "./core/kind";
import { deviceConfigImplementation } from "./device-config/provider";
import { deviceFleetImplementation } from "./device-fleet/provider";
import { deviceImplementation } from "./device/provider";
import { packageFunctions } from "./functions";
import type { PackageFunction } from "./functions/package-function";
import { rpsFleetImplementation } from "./rps-fleet/provider";
import { rpsProfileImplementation } from "./rps-profile/provider";
import { checkingConfigurationFirst } from "./guardrails/configuration-check";

/** Every kind by its name, which is also the `type` part of its tokens; in the schema's order. */
export const KINDS = {
  Device: deviceImplementation,
  DeviceFleet: deviceFleetImplementation,
  RpsProfile: rpsProfileImplementation,
  RpsFleet: rpsFleetImplementation,
  DeviceConfig: deviceConfigImplementation,
} as const satisfies Readonly<Record<string, KindDefinition>>;

/** The resource kinds' names. */
export type ResourceKind = keyof typeof KINDS;

/** The kinds' names, in the list's order. */
export const RESOURCE_KINDS = Object.keys(KINDS) as ResourceKind[];

/** The package's functions by name (`getDevice` for `devplatform:index:getDevice`). */
export const FUNCTIONS: Readonly<Record<string, PackageFunction>> = packageFunctions;

const definitions = new Map<ResourceKind, KindDefinition>();

/**
 * The kind as a front-end calls it (one object per kind): its check reports bad configuration
 * first (see configuration-check.ts).
 */
export function kindDefinition(kind: ResourceKind): KindDefinition {
  let definition = definitions.get(kind);
  if (!definition) {
    definition = checkingConfigurationFirst(KINDS[kind]);
    definitions.set(kind, definition);
  }
  return definition;
}
