/**
 * Failures as the user sees them: the operation, the resource, and the platform's own words
 * (the SDK's errors already name method, path, HTTP status, errCode, message and requestId).
 */
import { DevicePlatformError } from "../../sdk/errors";
import { redactText } from "../../sdk/redact";
import { quotaRefusalOf, quotaStopMessage } from "./quota";

/**
 * An expected failure. The dynamic provider host prints `stack` for some operations, so the stack
 * is the message alone: a user needs the platform's answer, not our call frames.
 */
export class ResourceOperationError extends Error {
  /** The SDK error's stable code, when the platform answered. */
  readonly code?: string;

  /** `message` is redacted whole: this is the text the engine prints and records. */
  constructor(message: string, options: { cause?: unknown; code?: string } = {}) {
    super(redactText(message), { cause: options.cause });
    this.name = "ResourceOperationError";
    this.code = options.code;
    this.stack = this.message;
  }

  /**
   * The name alone: the dynamic provider host logs a failed read or delete as `${error}: ${stack}`,
   * which prints the message once instead of twice.
   */
  override toString(): string {
    return this.name;
  }
}

/**
 * An operation that was done in part. The dynamic provider host reports an error carrying `id` and
 * `properties` as a partial failure (ErrorResourceInitFailed), so the engine records these outputs —
 * what was actually done — instead of forgetting it, and the next `up` updates the resource from
 * there. The engine shows `reasons`, not the message, for such a failure, so the message is the one
 * reason.
 */
export class PartialSuccessError extends ResourceOperationError {
  readonly id: string;
  readonly properties: Record<string, unknown>;
  readonly reasons: string[];

  constructor(
    message: string,
    id: string,
    properties: Record<string, unknown>,
    options: { cause?: unknown; code?: string } = {},
  ) {
    super(message, options);
    this.name = "PartialSuccessError";
    this.id = id;
    this.properties = properties;
    this.reasons = [this.message];
  }
}

/**
 * Wraps a failure of `operation` (e.g. `create Device sn=2400000000AB`) for the user. Platform
 * and configuration errors become {@link ResourceOperationError} — a spent daily quota in its own
 * words, with `left` (what the next run of the operation makes) when the caller knows it; anything
 * else is a bug and keeps its stack.
 */
export function operationFailed(operation: string, error: unknown, left?: string): Error {
  if (error instanceof ResourceOperationError) return error;
  const refusal = quotaRefusalOf(error);
  if (refusal) {
    return new ResourceOperationError(quotaStopMessage(operation, refusal, left), {
      cause: error,
      code: refusal.code,
    });
  }
  if (error instanceof DevicePlatformError) {
    return new ResourceOperationError(`${operation} failed: ${error.message}`, {
      cause: error,
      code: error.code,
    });
  }
  if (error instanceof Error && error.name === "ProviderConfigurationError") {
    return new ResourceOperationError(`${operation} failed: ${error.message}`, { cause: error });
  }
  return error instanceof Error ? error : new Error(`${operation} failed: ${String(error)}`);
}

/**
 * Runs `body`, turning its failure into one the user can act on; `left` (see
 * {@link operationFailed}) is asked only for a spent quota.
 */
export async function describeFailure<T>(
  operation: string,
  body: () => Promise<T>,
  left?: () => string,
): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw operationFailed(operation, error, quotaRefusalOf(error) ? left?.() : undefined);
  }
}
