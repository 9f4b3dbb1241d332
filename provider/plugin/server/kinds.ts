/**
 * Which resource kind a request is about, and the plugin front-end's input adapters: where the
 * dynamic front-end works around its host, the plugin gives the shared implementation the same
 * inputs from what the engine sends it.
 */
import type { Inputs } from "../../shared/input-checks";
import type { ResourceKind } from "../../runtime/serialized-provider";

/** The package's resource type tokens, by kind. */
export const RESOURCE_TOKENS: Readonly<Record<ResourceKind, string>> = {
  Device: "devplatform:index:Device",
  DeviceFleet: "devplatform:index:DeviceFleet",
  RpsProfile: "devplatform:index:RpsProfile",
  DeviceConfig: "devplatform:index:DeviceConfig",
};

/** Thrown for a type token the package does not have (an engine or program error). */
export class UnknownResourceTypeError extends Error {
  constructor(token: string) {
    super(`unknown resource type ${token}; this provider has ${Object.values(RESOURCE_TOKENS).join(", ")}`);
    this.name = "UnknownResourceTypeError";
  }
}

/** The parts of a resource URN (`urn:pulumi:stack::project::parent$type::name`). */
export function urnParts(urn: string): { type: string; name: string } {
  const parts = urn.split("::");
  const qualifiedType = parts[2] ?? "";
  // Everything after the third `::` is the name, which may itself hold `::`.
  const name = parts.slice(3).join("::");
  return { type: qualifiedType.split("$").at(-1) ?? qualifiedType, name };
}

/** The kind of a request, from its type token (or its URN's, for requests without one). */
export function kindOf(request: { type?: string; urn: string }): ResourceKind {
  const token = request.type || urnParts(request.urn).type;
  const kind = (Object.keys(RESOURCE_TOKENS) as ResourceKind[]).find((k) => RESOURCE_TOKENS[k] === token);
  if (kind === undefined) throw new UnknownResourceTypeError(token);
  return kind;
}

/**
 * The program's inputs as the shared implementation's check takes them. A DeviceFleet's name is
 * the resource's own (the dynamic front-end passes it as `fleetName`; here it is the URN's name,
 * and a `fleetName` in the program cannot change it); its `devices` arrive as the typed list the
 * schema declares, which the implementation takes as it is.
 */
export function implementationInputs(kind: ResourceKind, urn: string, news: Inputs): Inputs {
  if (kind === "DeviceFleet") return { ...news, fleetName: urnParts(urn).name };
  return news;
}

/**
 * Which checked inputs hold a value the program gave as a secret: the same names, and for a
 * DeviceFleet, `entries` when `devices` was secret (the checked form of the list).
 */
export function checkedSecrets(kind: ResourceKind, secrets: ReadonlySet<string>): ReadonlySet<string> {
  const checked = new Set(secrets);
  if (kind === "DeviceFleet" && secrets.has("devices")) checked.add("entries");
  return checked;
}
