/**
 * Failures as the engine takes them. A partial success (the platform did part of the work) is a
 * gRPC error carrying `pulumirpc.ErrorResourceInitFailed` in its status details — id, the outputs
 * of what was done, the inputs, and the reasons — which the engine records in the state as the
 * resource's new outputs, so the next `up` continues from there. Expected failures (the platform's
 * answer, the configuration) are their message alone; anything else is a bug and keeps its stack.
 */
import { redactText } from "../../../sdk";
import { PartialSuccessError, ResourceOperationError } from "../../shared/errors";
import type { Inputs } from "../../shared/input-checks";
import { toStruct } from "./properties";
import { anyPb, grpc, providerPb, statusPb, type GrpcJs } from "./rpc";

/** What the engine needs to record a partial success: the inputs that produced it and their secrets. */
export interface FailureContext {
  readonly inputs?: Inputs;
  readonly secrets?: ReadonlySet<string>;
}

const EXPECTED = new Set(["ProviderConfigurationError", "UnknownResourceTypeError"]);

/** The words the user sees for `error`, redacted whole: the engine prints and records them. */
export function failureMessage(error: unknown): string {
  if (error instanceof ResourceOperationError) return error.message;
  if (error instanceof Error)
    return redactText(EXPECTED.has(error.name) ? error.message : (error.stack ?? error.message));
  return redactText(String(error));
}

function initFailedDetails(error: PartialSuccessError, context: FailureContext): Buffer {
  const detail = new providerPb.ErrorResourceInitFailed();
  detail.setId(error.id);
  detail.setProperties(toStruct(error.properties, context.secrets));
  detail.setReasonsList(error.reasons);
  if (context.inputs !== undefined) detail.setInputs(toStruct(context.inputs, context.secrets));
  const any = new anyPb.Any();
  any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const status = new statusPb.Status();
  status.setCode(grpc.status.UNKNOWN);
  status.setMessage(error.message);
  status.addDetails(any);
  return Buffer.from(status.serializeBinary());
}

/** The gRPC error for a failed request. */
export function serviceError(error: unknown, context: FailureContext = {}): Partial<GrpcJs.ServiceError> {
  const metadata = new grpc.Metadata();
  if (error instanceof PartialSuccessError && error.id !== "") {
    // `grpc-status-details-bin` is how gRPC carries a google.rpc.Status with typed details.
    metadata.add("grpc-status-details-bin", initFailedDetails(error, context));
  }
  return { code: grpc.status.UNKNOWN, details: failureMessage(error), metadata };
}

/** A failure with what the engine needs to record it (see {@link serviceError}). */
export class RequestFailure {
  constructor(
    readonly error: unknown,
    readonly context: FailureContext,
  ) {}
}

/** Runs `body`; a failure carries `context` to the gRPC error. */
export async function withFailureContext<T>(context: FailureContext, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw new RequestFailure(error, context);
  }
}

/** The gRPC error for anything a handler threw. */
export function toServiceError(thrown: unknown): Partial<GrpcJs.ServiceError> {
  return thrown instanceof RequestFailure ? serviceError(thrown.error, thrown.context) : serviceError(thrown);
}
