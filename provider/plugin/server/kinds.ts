/**
 * Which resource kind a request is about, and the plugin front-end's input adapters: the kind's own
 * hooks (`recordedInputs`) say how its inputs are recorded where they differ from what its
 * operations take; here they are applied to what the engine sends.
 */
import type { Inputs } from "../../shared/input-checks";
import { token } from "../../core/schema-spec";
import type { RecordedInputs } from "../../core/kind";
import { KINDS, RESOURCE_KINDS, type ResourceKind } from "../../kinds";

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

/** The kind's recorded-inputs hooks (provider/core/kind.ts), if its recorded inputs differ. */
function recordedInputsOf(kind: ResourceKind): RecordedInputs | undefined {
  return KINDS[kind].recordedInputs;
}

/**
 * The program's inputs as the kind's check takes them, with the resource's name (the URN's); a
 * DeviceFleet takes it as its `fleetName` (see device-fleet/recorded-inputs.ts).
 */
export function implementationInputs(kind: ResourceKind, urn: string, news: Inputs): Inputs {
  return recordedInputsOf(kind)?.checkInputs(news, urnParts(urn).name) ?? news;
}

/** Which checked inputs hold a value the program gave as a secret. */
export function checkedSecrets(kind: ResourceKind, secrets: ReadonlySet<string>): ReadonlySet<string> {
  return recordedInputsOf(kind)?.checkedSecrets(secrets) ?? new Set(secrets);
}

/**
 * Checked inputs as the engine records them (a DeviceFleet's entries as `devices`, so that the
 * engine resolves its diff's paths against them in `preview --diff`).
 */
export function engineInputs(kind: ResourceKind, checked: Inputs): Inputs {
  return recordedInputsOf(kind)?.recorded(checked) ?? checked;
}

/** Recorded inputs (or a state's) as the kind's operations take them: the reverse of {@link engineInputs}. */
export function implementationChecked(kind: ResourceKind, inputs: Inputs): Inputs {
  return recordedInputsOf(kind)?.operationInputs(inputs) ?? inputs;
}

/**
 * Inputs recorded under the name of an output of another shape (a fleet's `devices`: entries in, the
 * platform's facts out): a preview answers such an output unknown (or, when stable, as it was).
 */
export const RESHAPED_INPUTS = Object.fromEntries(
  RESOURCE_KINDS.flatMap((kind) => {
    const reshaped = recordedInputsOf(kind)?.reshaped;
    return reshaped === undefined ? [] : [[kind, reshaped]];
  }),
) as Readonly<Partial<Record<ResourceKind, readonly string[]>>>;

/**
 * What a preview answers for the outputs a kind's recorded inputs tell in part (a fleet's serial
 * numbers as the keys of `devices` and `deviceIds`, their values unknown), so that a stack policy
 * sees them at preview; `{}` for the other kinds.
 */
export function previewedOutputs(kind: ResourceKind, recorded: Inputs): Inputs {
  return recordedInputsOf(kind)?.previewOutputs?.(recorded) ?? {};
}
