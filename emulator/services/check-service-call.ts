import type { TslModel, TslParameter, TslService } from "../catalogue/types";
import type { PropertyMap, PropertyValue } from "../state/types";
import { checkValue, show } from "../tsl/validate-value";

/** Outcome of checking a service call against a TSL model. */
export interface ServiceCallCheck {
  /** The inputs in stored form (exact 64-bit integers as `bigint`). */
  inputs: PropertyMap;
  /** Every rule broken, one sentence each; empty when the call is valid. */
  problems: string[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A STRUCT input: an object (its children are not described by the catalogue's services). */
function checkInput(parameter: TslParameter, raw: unknown, problems: string[]): PropertyValue | undefined {
  const path = `inputs.${parameter.id}`;
  const { dataType } = parameter.dataSpec;
  if (dataType !== "STRUCT") return checkValue(path, dataType, parameter.dataSpec, raw, problems);
  if (isPlainObject(raw)) return raw as PropertyValue;
  problems.push(`${path}: expected a STRUCT (an object), got ${show(raw)}`);
  return undefined;
}

function checkInputs(service: TslService, inputs: Record<string, unknown>): ServiceCallCheck {
  const problems: string[] = [];
  const checked: PropertyMap = {};
  const byId = new Map(service.inputs.map((p) => [p.id, p]));
  for (const [id, raw] of Object.entries(inputs)) {
    const parameter = byId.get(id);
    if (!parameter) {
      const known = service.inputs.map((p) => p.id).join(", ") || "none";
      problems.push(`inputs.${id}: not an input of the service ${service.id} (its inputs: ${known})`);
      continue;
    }
    const value = checkInput(parameter, raw, problems);
    if (value !== undefined) checked[id] = value;
  }
  for (const parameter of service.inputs) {
    if (parameter.dataSpec.validator?.required && !(parameter.id in inputs)) {
      problems.push(`inputs.${parameter.id}: required by the service ${service.id}`);
    }
  }
  return { inputs: checked, problems };
}

/**
 * Checks a call of Invoke Device Services Asynchronously: the service is one of the device's TSL
 * model, every input is one the service defines, each value fits its dataSpec (the same value rules
 * as property writes), and every required input is given.
 */
export function checkServiceCall(tsl: TslModel, serviceId: string, inputs: unknown): ServiceCallCheck {
  const service = tsl.services.find((s) => s.id === serviceId);
  if (!service) {
    const known = tsl.services.map((s) => s.id).join(", ") || "none";
    return {
      inputs: {},
      problems: [
        `serviceId: ${serviceId} is not a service of TSL model version ${tsl.version} (services: ${known})`,
      ],
    };
  }
  if (!isPlainObject(inputs)) {
    return { inputs: {}, problems: [`inputs: expected an object keyed by input id, got ${show(inputs)}`] };
  }
  return checkInputs(service, inputs);
}
