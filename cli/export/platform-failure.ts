/**
 * Platform errors as a person running `export` needs to read them: which setting to check, the URL
 * it was talking to, and the SDK's own message (operation, HTTP status, errCode, requestId). The
 * SDK has already redacted every credential from its messages.
 */
import {
  AuthenticationError,
  ConfigurationError,
  DevicePlatformError,
  maskUrl,
  NotFoundError,
  ResponseShapeError,
  TransportError,
} from "../../sdk";
import { CommandFailure } from "../errors";
import { FleetReadError } from "./read-fleet";

/** Where the export was talking to. */
export interface PlatformTarget {
  readonly baseUrl: string;
  readonly clientId: string;
}

/** Not-found codes that mean "this object is gone" rather than "this is not the platform". */
const GONE = new Set(["device_not_found", "rps_record_not_found"]);

/**
 * Whether the answer says the URL is not the platform. A {@link ResponseShapeError} does not: it
 * came in the platform's own success envelope, with data the client could not read (a value it
 * has never seen), so the URL is right and the message says what could not be read.
 */
function notThePlatform(error: DevicePlatformError): boolean {
  if (error instanceof ConfigurationError) return true;
  if (error instanceof NotFoundError) return !GONE.has(error.errCode ?? "");
  // The token endpoint answering anything but success or refused credentials is not the platform.
  return (
    error.path.endsWith("/oauth/token") &&
    !(error instanceof AuthenticationError) &&
    error.status !== undefined
  );
}

/**
 * The failure to report for an error thrown while reading the fleet, or undefined when it is not a
 * platform error (a bug, which the caller reports with its stack).
 */
export function platformFailure(error: unknown, target: PlatformTarget): CommandFailure | undefined {
  const phase = error instanceof FleetReadError ? error.phase : "reading the fleet";
  const cause = error instanceof FleetReadError ? error.cause : error;
  if (!(cause instanceof DevicePlatformError)) return undefined;
  const { clientId } = target;
  // Never the user-info or query of the URL as given: a credential may hide there.
  const baseUrl = maskUrl(target.baseUrl);
  if (cause instanceof AuthenticationError) {
    return new CommandFailure(
      `authentication_failed: the platform at ${baseUrl} did not accept client id "${clientId}" and its secret ` +
        `(${phase}): ${cause.message}. Check DEVPLATFORM_CLIENT_ID and DEVPLATFORM_CLIENT_SECRET`,
    );
  }
  if (cause instanceof TransportError) {
    return new CommandFailure(
      `cannot reach the platform at ${baseUrl} (${phase}): ${cause.message}. ` +
        `Check DEVPLATFORM_BASE_URL (or --base-url)`,
    );
  }
  if (notThePlatform(cause)) {
    return new CommandFailure(
      `${baseUrl} does not answer as the device platform does (${phase}): ${cause.message}. ` +
        `Check DEVPLATFORM_BASE_URL (or --base-url): it is https://<server_address> of the application`,
    );
  }
  if (cause instanceof ResponseShapeError) {
    return new CommandFailure(
      `${phase} from ${baseUrl} failed: the platform answered with data this version cannot read: ` +
        `${cause.message}. The base URL is right; please report the answer (its requestId) with the ` +
        `version of pulumi-devplatform`,
    );
  }
  return new CommandFailure(`${phase} from ${baseUrl} failed: ${cause.message}`);
}
