/**
 * Partial failures must leave a state that later commands can load.
 *
 * The dynamic provider host records a failed create or update that carries `id` and `properties`
 * as the resource's new outputs (ErrorResourceInitFailed). On success it adds the serialized
 * provider (`__provider`) to the outputs itself, but not on this path: outputs recorded without it
 * cannot be loaded by the host again, so `refresh`, `up --refresh` and `destroy` of that resource
 * would fail with a gRPC stack trace. Every partial failure therefore carries the serialized
 * provider of the inputs that produced it.
 */
import type { Inputs } from "../shared/input-checks";
import { PartialSuccessError } from "../shared/errors";

/** The key under which the dynamic provider host keeps the serialized provider. */
export const SERIALIZED_PROVIDER_KEY = "__provider";

/** `error` with the serialized provider of `inputs` in its recorded properties (other errors as they are). */
export function withSerializedProvider(error: unknown, inputs: Inputs): unknown {
  if (!(error instanceof PartialSuccessError)) return error;
  const provider = inputs[SERIALIZED_PROVIDER_KEY];
  if (provider === undefined || error.properties[SERIALIZED_PROVIDER_KEY] !== undefined) return error;
  Object.assign(error.properties, { [SERIALIZED_PROVIDER_KEY]: provider });
  return error;
}
