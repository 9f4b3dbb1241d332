/**
 * Invoke: the package's functions (`devplatform:index:getDevice`, …) through `FUNCTIONS`.
 * A function's refusal of its arguments comes back as check failures naming the argument, which
 * the engine shows as the call's error.
 */
import { ResourceOperationError } from "../../shared/errors";
import { FUNCTIONS } from "../../kinds";
import { failureMessage } from "./errors";
import { fromStruct, toStruct } from "./properties";
import { providerPb, type ProviderPb } from "./rpc";

const PREFIX = "devplatform:index:";

interface Failure {
  property: string;
  reason: string;
}

function isFailure(value: unknown): value is Failure {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Failure).property === "string" &&
    typeof (value as Failure).reason === "string"
  );
}

/**
 * The failures an invoke's error stands for: its own list (`failures`, each naming an argument),
 * an expected failure's message, or none (a bug: the call fails with its stack).
 */
export function invokeFailures(error: unknown): Failure[] | undefined {
  const listed = (error as { failures?: unknown } | null)?.failures;
  if (Array.isArray(listed) && listed.every(isFailure)) return listed;
  if (error instanceof ResourceOperationError) return [{ property: "", reason: error.message }];
  if (error instanceof Error && error.name === "ProviderConfigurationError") {
    return [{ property: "", reason: failureMessage(error) }];
  }
  return undefined;
}

/** Invoke of one function. */
export async function invoke(request: ProviderPb.InvokeRequest): Promise<ProviderPb.InvokeResponse> {
  const token = request.getTok();
  const name = token.startsWith(PREFIX) ? token.slice(PREFIX.length) : "";
  const fn = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
  const response = new providerPb.InvokeResponse();
  const fail = (failures: Failure[]) => {
    response.setFailuresList(
      failures.map(({ property, reason }) => {
        const failure = new providerPb.CheckFailure();
        failure.setProperty(property);
        failure.setReason(reason);
        return failure;
      }),
    );
    return response;
  };
  if (fn === undefined) {
    const known = Object.keys(FUNCTIONS).map((key) => PREFIX + key);
    return fail([
      { property: "", reason: `unknown function ${token}; this provider has ${known.join(", ")}` },
    ]);
  }
  try {
    response.setReturn(toStruct(await fn.invoke(fromStruct(request.getArgs()).values)));
    return response;
  } catch (error) {
    const failures = invokeFailures(error);
    if (failures === undefined) throw error;
    return fail(failures);
  }
}
