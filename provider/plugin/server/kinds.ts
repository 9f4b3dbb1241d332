/**
 * Which resource kind a request is about, and the plugin front-end's input adapters: where the
 * dynamic front-end works around its host, the plugin gives the shared implementation the same
 * inputs from what the engine sends it.
 */
import type { Inputs } from "../../shared/input-checks";
import { token } from "../../core/schema-spec";
import { RESOURCE_KINDS, type ResourceKind } from "../../kinds";
import { isPlainObject } from "../../tsl/validate";

/** The package's resource type tokens, by kind (`devplatform:index:<Kind>`). */
export const RESOURCE_TOKENS = Object.fromEntries(
  RESOURCE_KINDS.map((kind) => [kind, token(kind)]),
) as Readonly<Record<ResourceKind, string>>;

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

/**
 * Checked inputs as the engine records them. A DeviceFleet's checked entries (`entries`, keyed by
 * serial number) are recorded under the program's name `devices`: the engine resolves the diff's
 * paths, `devices["240000A10003"].name`, against the old and new recorded inputs to show their
 * values in `preview --diff`.
 */
export function engineInputs(kind: ResourceKind, checked: Inputs): Inputs {
  if (kind !== "DeviceFleet" || !Object.hasOwn(checked, "entries")) return checked;
  const { entries, ...rest } = checked;
  return { ...rest, devices: entries };
}

/** Recorded inputs (or a state's) as the implementation takes them: the reverse of {@link engineInputs}. */
export function implementationChecked(kind: ResourceKind, inputs: Inputs): Inputs {
  // A list is the program's form (the inputs an import read recorded): the check takes it as it is.
  if (kind !== "DeviceFleet" || !isPlainObject(inputs.devices)) return inputs;
  const { devices, ...rest } = inputs;
  return { ...rest, entries: devices };
}

/**
 * Inputs recorded under the name of an output of another shape (a fleet's `devices`: entries in, the
 * platform's facts out): a preview answers such an output unknown (or, when stable, as it was).
 */
export const RESHAPED_INPUTS: Readonly<Partial<Record<ResourceKind, readonly string[]>>> = {
  DeviceFleet: ["devices"],
};
