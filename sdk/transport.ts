/**
 * One HTTP attempt over undici: a keep-alive connection pool, connect/headers/body timeouts, and the
 * client's pacing. It never throws for network trouble; it reports what happened so that the retry
 * layer can tell "never reached the server" from "may have been performed".
 */
import type { Dispatcher } from "undici";
import { RequestLimiter } from "./limiter";

/** Settings of the transport. */
export interface TransportOptions {
  /** `https://host:port` of the platform. */
  readonly origin: string;
  /** Path prefix of the base URL, without a trailing slash ("" for none). */
  readonly basePath: string;
  /** Limit for receiving response headers, and for each gap while reading the body. */
  readonly timeoutMs: number;
  /** Requests in flight at once. */
  readonly concurrency: number;
  /** Request starts per second; unlimited when undefined. */
  readonly requestsPerSecond?: number;
  /** A dispatcher to use instead of an own pool (tests pass an undici `MockAgent`). */
  readonly dispatcher?: Dispatcher;
}

/** HTTP methods the platform uses. */
export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";

/** One request, ready to send. `path` is relative to the base URL. */
export interface HttpRequest {
  readonly method: HttpMethod;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** Why no response arrived. */
export interface TransportFailure {
  /** Human-readable, secret-free description, e.g. `connection reset (ECONNRESET)`. */
  readonly reason: string;
  /** `no` when the request provably never reached the server. */
  readonly performed: "no" | "unknown";
  /** Whether trying again can help. */
  readonly transient: boolean;
  readonly cause: unknown;
}

/** What one attempt produced. */
export type HttpResult =
  | {
      readonly kind: "response";
      readonly status: number;
      readonly text: string;
      readonly retryAfter?: string;
      readonly requestId?: string;
      readonly durationMs: number;
    }
  | { readonly kind: "failure"; readonly failure: TransportFailure; readonly durationMs: number };

/** Keep idle connections this long; well under typical 60 s server and load-balancer idle timeouts. */
const KEEP_ALIVE_MS = 10_000;
const MAX_CONNECT_TIMEOUT_MS = 10_000;

/**
 * undici's `Pool`, loaded when the first transport is built: undici is about 110 modules (~0.2 s
 * of CPU to load), and a process that makes no request — a no-change preview's provider host —
 * should not pay for it.
 */
function undiciPool(): typeof import("undici").Pool {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require("undici") as typeof import("undici")).Pool;
}

/** Sends single HTTP attempts to one platform origin. */
export class HttpTransport {
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly limiter: RequestLimiter;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: TransportOptions) {
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ??
      new (undiciPool())(options.origin, {
        connections: options.concurrency,
        pipelining: 1,
        keepAliveTimeout: KEEP_ALIVE_MS,
        connect: { timeout: Math.min(options.timeoutMs, MAX_CONNECT_TIMEOUT_MS) },
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
    this.limiter = new RequestLimiter({
      concurrency: options.concurrency,
      requestsPerSecond: options.requestsPerSecond,
    });
  }

  /**
   * Sends one attempt, waiting for a concurrency slot and the rate limit first. `beforeStart` runs
   * once the attempt may start, right before it is sent: a request can wait long in the queue, and
   * what it checks (a halt, say) must hold when the request leaves; if it throws, nothing is sent.
   */
  send(request: HttpRequest, beforeStart?: () => Promise<void>): Promise<HttpResult> {
    return this.limiter.run(async () => {
      await beforeStart?.();
      return this.sendNow(request);
    });
  }

  /**
   * Closes the pool this transport created (an injected dispatcher belongs to its owner). Calling
   * it again returns the same promise rather than failing on an already closed pool.
   */
  close(): Promise<void> {
    this.closing ??= this.ownsDispatcher ? this.dispatcher.close() : Promise.resolve();
    return this.closing;
  }

  private async sendNow(request: HttpRequest): Promise<HttpResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const response = await this.dispatcher.request({
        origin: this.options.origin,
        path: this.options.basePath + request.path,
        method: request.method,
        headers: request.headers,
        body: request.body,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      const text = await response.body.text();
      return {
        kind: "response",
        status: response.statusCode,
        text,
        retryAfter: headerValue(response.headers["retry-after"]),
        requestId: headerValue(response.headers["x-request-id"]),
        durationMs: elapsed(),
      };
    } catch (error) {
      return { kind: "failure", failure: classifyTransportError(error), durationMs: elapsed() };
    }
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Errors raised before any byte of the request could have reached the server. */
const NOT_SENT_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  UND_ERR_CONNECT_TIMEOUT: "connect timeout",
  EAI_AGAIN: "DNS lookup failed for now",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
};

/** Errors after the request may have been sent: the server may have acted on it. */
const AFTER_SEND_CODES: Record<string, string> = {
  ECONNRESET: "connection reset",
  EPIPE: "connection broken",
  ETIMEDOUT: "connection timed out",
  UND_ERR_SOCKET: "connection closed by the server",
  UND_ERR_HEADERS_TIMEOUT: "timed out waiting for the response",
  UND_ERR_BODY_TIMEOUT: "timed out reading the response body",
  UND_ERR_ABORTED: "request aborted",
};

/**
 * Errors that another attempt cannot fix. ENOTFOUND is the resolver's "no such name" (NXDOMAIN, or
 * no address for it): an authoritative answer, which resolvers also cache for minutes, so retrying
 * for half a minute as after a reset only delays the message that the base URL names no host. A
 * resolver that could not answer says EAI_AGAIN, which is retried.
 */
const FINAL_CODES: Record<string, string> = {
  ENOTFOUND: "host not found",
  UND_ERR_CLOSED: "the client is closed",
  UND_ERR_DESTROYED: "the client is closed",
  UND_ERR_INVALID_ARG: "invalid request",
};

/** Sorts an undici or socket error into the categories the retry policy needs. */
export function classifyTransportError(error: unknown): TransportFailure {
  const code = errorCode(error);
  if (code !== undefined && code in NOT_SENT_CODES) {
    return { reason: `${NOT_SENT_CODES[code]} (${code})`, performed: "no", transient: true, cause: error };
  }
  if (code !== undefined && code in AFTER_SEND_CODES) {
    return {
      reason: `${AFTER_SEND_CODES[code]} (${code})`,
      performed: "unknown",
      transient: true,
      cause: error,
    };
  }
  if (code !== undefined && code in FINAL_CODES) {
    return { reason: `${FINAL_CODES[code]} (${code})`, performed: "no", transient: false, cause: error };
  }
  const detail = error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 200) : String(error);
  return {
    reason: code ? `${detail} (${code})` : detail,
    performed: "unknown",
    transient: false,
    cause: error,
  };
}

/** The error code, looking inside an AggregateError (Happy Eyeballs reports one per address). */
function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") return code;
  const inner = (error as { errors?: unknown }).errors;
  return Array.isArray(inner) ? errorCode(inner[0]) : undefined;
}
