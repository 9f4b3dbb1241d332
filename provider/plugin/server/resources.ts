/**
 * Check, Create, Read, Update and Delete of the kinds, on the definitions both front-ends call
 * (`kindDefinition(kind)`: its check runs `configurationProblem()` and `noteProgramRan()` first).
 * This file only translates the protocol: property values, secrets, previews, imports and partial
 * failures.
 */
import { kindDefinition, type ResourceKind } from "../../kinds";
import { UNKNOWN, type Inputs } from "../../shared/input-checks";
import { engineFailures } from "../../shared/engine-failures";
import { withFailureContext } from "./errors";
import {
  checkedSecrets,
  engineInputs,
  implementationChecked,
  implementationInputs,
  kindOf,
  previewedOutputs,
  RESHAPED_INPUTS,
  urnParts,
} from "./kinds";
import { fromStruct, secretsOf, toStruct } from "./properties";
import { providerPb, type ProviderPb } from "./rpc";
import { stablesOf } from "./diff";

/** Check: the implementation's checked inputs (secret where the program's were) and failures. */
export async function check(request: ProviderPb.CheckRequest): Promise<ProviderPb.CheckResponse> {
  const kind = kindOf({ type: request.getType(), urn: request.getUrn() });
  const olds = fromStruct(request.getOlds());
  const news = fromStruct(request.getNews());
  const result = await kindDefinition(kind).check(
    implementationChecked(kind, olds.values),
    implementationInputs(kind, request.getUrn(), news.values),
  );
  const response = new providerPb.CheckResponse();
  response.setInputs(toStruct(engineInputs(kind, result.inputs ?? {}), checkedSecrets(kind, news.secrets)));
  response.setFailuresList(
    engineFailures(result.failures ?? []).map(({ property, reason }) => {
      const failure = new providerPb.CheckFailure();
      failure.setProperty(property);
      failure.setReason(reason);
      return failure;
    }),
  );
  return response;
}

/**
 * Create. A preview answers the checked inputs alone: every output is computed, and the program
 * sees it unknown, except for what the inputs tell (a fleet's serial numbers, the keys of its
 * outputs, whose values stay unknown). A partial success is recorded (see errors.ts).
 */
export async function create(request: ProviderPb.CreateRequest): Promise<ProviderPb.CreateResponse> {
  const kind = kindOf({ type: request.getType(), urn: request.getUrn() });
  const inputs = fromStruct(request.getProperties());
  const response = new providerPb.CreateResponse();
  if (request.getPreview()) {
    const reshaped = Object.fromEntries((RESHAPED_INPUTS[kind] ?? []).map((key) => [key, UNKNOWN]));
    const previewed = previewedOutputs(kind, inputs.values);
    response.setProperties(toStruct({ ...inputs.values, ...reshaped, ...previewed }, inputs.secrets));
    return response;
  }
  const created = await withFailureContext({ inputs: inputs.values, secrets: inputs.secrets }, () =>
    kindDefinition(kind).create(implementationChecked(kind, inputs.values)),
  );
  response.setId(created.id);
  response.setProperties(toStruct(created.outs ?? {}, inputs.secrets));
  return response;
}

function isEmpty(values: Inputs): boolean {
  return Object.keys(values).length === 0;
}

/**
 * Read. A refresh (id and recorded state) reads through the implementation and answers the
 * declared inputs within the state; an import (`pulumi import`, the `import` option: the id alone)
 * reads through the kind's import. An empty id says the resource is gone.
 */
export async function read(request: ProviderPb.ReadRequest): Promise<ProviderPb.ReadResponse> {
  const kind = kindOf({ type: request.getType(), urn: request.getUrn() });
  const state = fromStruct(request.getProperties());
  const oldInputs = fromStruct(request.getInputs());
  const response = new providerPb.ReadResponse();
  if (isEmpty(state.values) && isEmpty(oldInputs.values)) {
    // The resource's name too: a DeviceFleet's id is its name, and its import id is a filter.
    const imported = await kindDefinition(kind).importRead(request.getId(), urnParts(request.getUrn()).name);
    response.setId(imported.id);
    response.setProperties(toStruct(imported.outputs));
    response.setInputs(toStruct(imported.inputs));
    return response;
  }
  const result = await kindDefinition(kind).read(request.getId(), state.values);
  if (!result.id) return response;
  const secrets = secretsOf(state.secrets, oldInputs.secrets);
  const outputs = result.props ?? {};
  response.setId(result.id);
  response.setProperties(toStruct(outputs, secrets));
  response.setInputs(toStruct(kindDefinition(kind).inputsOf(outputs), secrets));
  return response;
}

/**
 * The outputs an update preview answers: the new inputs over the recorded state, and every other
 * output unknown unless the diff said it stays (stables), so the program never sees a stale value;
 * where the new inputs tell part of an output that changes (a fleet's serial numbers), that part.
 */
function previewOutputs(urn: string, olds: Inputs, news: Inputs, kind: ResourceKind): Inputs {
  const reshaped = RESHAPED_INPUTS[kind] ?? [];
  const stables = new Set(stablesOf(urn));
  const previewed = previewedOutputs(kind, news);
  const outputs: Inputs = Object.fromEntries(Object.entries(news).filter(([key]) => !reshaped.includes(key)));
  for (const [key, value] of Object.entries(olds)) {
    if (key in outputs) continue;
    outputs[key] = stables.has(key) ? value : (previewed[key] ?? UNKNOWN);
  }
  return outputs;
}

/** Update (with a preview answer as above); a partial success is recorded. */
export async function update(request: ProviderPb.UpdateRequest): Promise<ProviderPb.UpdateResponse> {
  const kind = kindOf({ type: request.getType(), urn: request.getUrn() });
  const olds = fromStruct(request.getOlds());
  const news = fromStruct(request.getNews());
  // A value secret before or now stays secret.
  const secrets = secretsOf(olds.secrets, news.secrets);
  const response = new providerPb.UpdateResponse();
  if (request.getPreview()) {
    const outputs = previewOutputs(request.getUrn(), olds.values, news.values, kind);
    response.setProperties(toStruct(outputs, secrets));
    return response;
  }
  const updated = await withFailureContext({ inputs: news.values, secrets }, () =>
    kindDefinition(kind).update(request.getId(), olds.values, implementationChecked(kind, news.values)),
  );
  response.setProperties(toStruct(updated.outs ?? {}, secrets));
  return response;
}

/** Delete, with the recorded state. */
export async function remove(request: ProviderPb.DeleteRequest): Promise<void> {
  const kind = kindOf({ type: request.getType(), urn: request.getUrn() });
  await kindDefinition(kind).delete(request.getId(), fromStruct(request.getProperties()).values);
}
