/**
 * The bodies of the platform operations the Pulumi resources do not use — property history,
 * service calls — and the check of Delete a Device's answer, as functions of the executor, so that
 * `client.ts` keeps to describing operations.
 */
import { SerialNumberMismatchError } from "./errors";
import type { RequestExecutor, OperationSpec } from "./executor";
import { PropertyHistory } from "./history-pages";
import { checkInput, invalidInput } from "./input-checks";
import type { JsonInput } from "./lossless-json";
import {
  propertyHistoryOptionsSchema,
  propertyHistoryPageSchema,
  type PropertyHistoryOptions,
  type ServiceCallResult,
} from "./schemas/history";
import type { ThingModel } from "./schemas/tsl";
import { indexFields } from "./tsl/field-index";
import { checkServiceCall } from "./tsl/service-inputs";
import { toWireValues } from "./tsl/wire-values";
import { z } from "zod";

const anyData = z.unknown();

function spec<T>(method: OperationSpec<T>["method"], path: string, schema: z.ZodType<T>): OperationSpec<T> {
  return { method, path, schema, repeatability: method === "POST" ? "unsafe" : "safe", authenticated: true };
}

/** Query the Historical Data of Properties Reports, paged by `pageKey` as iteration proceeds. */
export function propertyHistory(
  executor: RequestExecutor,
  path: string,
  options: PropertyHistoryOptions,
): PropertyHistory {
  const { startTime, endTime, pageSize } = checkInput("GET", path, propertyHistoryOptionsSchema, options);
  return new PropertyHistory((pageKey) => {
    const query = new URLSearchParams({ pageSize: String(pageSize) });
    if (startTime !== undefined) query.set("startTime", String(startTime));
    if (endTime !== undefined) query.set("endTime", String(endTime));
    if (pageKey !== undefined) query.set("pageKey", pageKey);
    return executor.execute(spec("GET", `${path}?${query.toString()}`, propertyHistoryPageSchema));
  });
}

/** What a service call needs besides the executor. */
export interface ServiceCallTarget {
  readonly path: string;
  readonly deviceId: string;
  /** The device's TSL model, read when the caller gave none. */
  readonly model: () => Promise<ThingModel>;
}

/**
 * Invoke Device Services Asynchronously, after checking the call against the device's TSL model:
 * a `ValidationError` (0 attempts) for any broken rule. Never repeated after an unconfirmed attempt.
 */
export async function callService(
  executor: RequestExecutor,
  target: ServiceCallTarget,
  serviceId: string,
  inputs: Readonly<Record<string, JsonInput>>,
): Promise<ServiceCallResult> {
  const { path, deviceId } = target;
  if (typeof serviceId !== "string" || serviceId === "")
    throw invalidInput("POST", path, "serviceId must be a non-empty string");
  const model = await target.model();
  const check = checkServiceCall(model, serviceId, inputs, `device ${deviceId}`);
  if (check.problems.length > 0) {
    const problems = check.problems.map((p) => `${p.path} ${p.message}`).join("; ");
    throw invalidInput("POST", path, `service call ${serviceId} refused: ${problems}`);
  }
  const { requestId } = await executor.executeWithRequestId({
    ...spec("POST", path, anyData),
    json: { serviceId, inputs: toWireValues(inputs, indexFields(check.service?.inputs ?? [])) },
    ambiguousNote:
      `the service ${serviceId} may have been invoked on device ${deviceId}, so the call was not ` +
      `repeated (the device could act twice); check the device before calling again`,
  });
  return { requestId };
}

/**
 * Delete a Device; resolves with the serial number the platform answers (undefined when none).
 * With `expectedSn`, another serial number in the answer is a `SerialNumberMismatchError`.
 */
export async function deleteDevice(
  executor: RequestExecutor,
  path: string,
  deviceId: string,
  expectedSn: string | undefined,
  baseUrl: string,
): Promise<string | undefined> {
  const { value, requestId } = await executor.executeWithRequestId(spec("DELETE", path, anyData));
  const sn = typeof value === "string" && value !== "" ? value : undefined;
  if (expectedSn === undefined || sn === undefined || sn.toUpperCase() === expectedSn.toUpperCase())
    return sn;
  throw new SerialNumberMismatchError({
    method: "DELETE",
    path,
    attempts: 1,
    status: 200,
    requestId,
    baseUrl,
    reason:
      `the platform deleted deviceId ${deviceId} and answered serial number ${sn}, ` +
      `not ${expectedSn} as expected`,
  });
}
