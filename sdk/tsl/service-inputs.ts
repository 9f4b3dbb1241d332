/**
 * The inputs of a service call against the service's definition in a device's TSL model, before
 * anything is sent: the service exists, every input is one the service defines, every value fits
 * its dataSpec (by the same rules as configuration values: check-value.ts), and every input the
 * model marks `required` is given.
 */
import type { ThingModel, TslParameter, TslService } from "../schemas/tsl";
import { checkFieldValue, isPlainObject, type ValueCheckContext } from "./check-value";
import { indexFields, type FieldIndex } from "./field-index";

/** One broken rule: where (relative to the call, e.g. `inputs.offset`) and what. */
export interface TslProblem {
  /** E.g. `serviceId`, `inputs.offset`, `inputs.window.start`. */
  readonly path: string;
  /** E.g. `must be at most 5 (TSL validator max of device 9007199254741001), got 9`. */
  readonly message: string;
}

/** The result of {@link checkServiceCall}: the service, its indexed inputs, and what is wrong. */
export interface ServiceCallCheck {
  readonly service: TslService | undefined;
  readonly inputs: FieldIndex<TslParameter>;
  readonly problems: readonly TslProblem[];
}

/**
 * Checks a call of `serviceId` with `inputs` against `model`. `source` names whose model it is in
 * every message, e.g. `device 9007199254741001`.
 */
export function checkServiceCall(
  model: ThingModel,
  serviceId: string,
  inputs: unknown,
  source: string,
): ServiceCallCheck {
  const problems: TslProblem[] = [];
  const ctx: ValueCheckContext = { source, report: (path, message) => problems.push({ path, message }) };
  const service = model.services.find((s) => s.id === serviceId);
  const index = indexFields(service?.inputs ?? []);
  if (!service) {
    const version = model.version ? ` version ${model.version}` : "";
    const known = model.services.map((s) => s.id).join(", ") || "none";
    ctx.report(
      "serviceId",
      `${serviceId} is not a service of the TSL model${version} of ${source}; services: ${known}`,
    );
    return { service, inputs: index, problems };
  }
  if (!isPlainObject(inputs)) {
    ctx.report("inputs", `must be an object keyed by the service's input ids`);
    return { service, inputs: index, problems };
  }
  for (const [id, value] of Object.entries(inputs)) {
    const field = index.topLevel.get(id);
    if (field) checkFieldValue(field, value, `inputs.${id}`, index, ctx);
    else reportUnknownInput(id, service, index, ctx);
  }
  for (const field of index.topLevel.values()) {
    if (field.dataSpec?.validator?.required === true && !Object.hasOwn(inputs, field.id)) {
      ctx.report(`inputs.${field.id}`, `is required (TSL validator required of ${source}), got no value`);
    }
  }
  return { service, inputs: index, problems };
}

function reportUnknownInput(
  id: string,
  service: TslService,
  index: FieldIndex<TslParameter>,
  ctx: ValueCheckContext,
): void {
  const parentId = index.byId.get(id)?.dataSpec?.parentId;
  if (parentId !== undefined) {
    ctx.report(`inputs.${id}`, `is a field of the STRUCT input ${parentId}; give it inside that object`);
    return;
  }
  const known = [...index.topLevel.keys()].join(", ") || "none";
  ctx.report(
    `inputs.${id}`,
    `is not an input of the service ${service.id} (TSL model of ${ctx.source}); its inputs: ${known}`,
  );
}
