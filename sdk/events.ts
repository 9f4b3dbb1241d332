/** Per-attempt request events, for logging and metrics. Nothing secret is ever put in one. */

/** One HTTP attempt, reported to `onEvent` when it ends. */
export interface RequestEvent {
  /** HTTP method. */
  readonly method: string;
  /** Path relative to the base URL, e.g. `/device/openapi/v1/devices/123`; credentials redacted. */
  readonly path: string;
  /** HTTP status, or `null` when no response arrived (reset, timeout, refused). */
  readonly status: number | null;
  /** Time from sending to the end of the response body, in milliseconds. */
  readonly durationMs: number;
  /** 1 for the first attempt of an operation, 2 for the first retry, … */
  readonly attempt: number;
  /** Set when another attempt follows: the wait before it, in milliseconds. */
  readonly retryInMs?: number;
  /** The SDK's stable error code when the attempt failed, e.g. `rate_limited`, `transport_error`. */
  readonly errorCode?: string;
  /** The platform's `errCode`, when it sent one. */
  readonly errCode?: string;
}

/** Receives request events; exceptions it throws are ignored so that logging cannot break requests. */
export type RequestEventListener = (event: RequestEvent) => void;

/** Calls the listener, shielding the request from anything it throws. */
export function emitEvent(listener: RequestEventListener | undefined, event: RequestEvent): void {
  if (!listener) return;
  try {
    listener(Object.freeze({ ...event }));
  } catch {
    // A broken logger must not turn a successful request into a failure.
  }
}
