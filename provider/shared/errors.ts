/**
 * Failures as the user sees them: the operation, the resource, and the platform's own words
 * (the SDK's errors already name method, path, HTTP status, errCode, message and requestId).
 */
import { DevicePlatformError } from "../../sdk";

/**
 * An expected failure. The dynamic provider host prints `stack` for some operations, so the stack
 * is the message alone: a user needs the platform's answer, not our call frames.
 */
export class ResourceOperationError extends Error {
  /** The SDK error's stable code, when the platform answered. */
  readonly code?: string;

  constructor(message: string, options: { cause?: unknown; code?: string } = {}) {
    super(message, { cause: options.cause });
    this.name = "ResourceOperationError";
    this.code = options.code;
    this.stack = message;
  }
}

/**
 * Wraps a failure of `operation` (e.g. `create Device sn=2400000000AB`) for the user. Platform
 * and configuration errors become {@link ResourceOperationError}; anything else is a bug and keeps
 * its stack.
 */
export function operationFailed(operation: string, error: unknown): Error {
  if (error instanceof ResourceOperationError) return error;
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

/** Runs `body`, turning its failure into one the user can act on. */
export async function describeFailure<T>(operation: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw operationFailed(operation, error);
  }
}
