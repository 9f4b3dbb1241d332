/**
 * Runs one platform operation end to end: authorisation, attempts, retries, parsing, errors and
 * events. Operations describe themselves with an {@link OperationSpec}; this file holds the policy
 * that is the same for all of them.
 */
import type { z } from "zod";
import {
  DevicePlatformError,
  ResponseShapeError,
  TransportError,
  errorFromResponse,
  withNote,
} from "./errors";
import { emitEvent, type RequestEventListener } from "./events";
import { parseLosslessJson, stringifyLosslessJson } from "./lossless-json";
import { redactText } from "./redact";
import {
  decideRetry,
  retryDelayMs,
  sleep,
  type AttemptOutcome,
  type Repeatability,
  type RetryOptions,
} from "./retry";
import { envelopeSchema } from "./schemas/common";
import type { HttpMethod, HttpRequest, HttpResult, HttpTransport } from "./transport";

/** Where access tokens come from; see auth.ts. */
export interface TokenSource {
  getAccessToken(): Promise<string>;
  invalidate(accessToken: string): void;
}

/** Everything the executor needs to know about one operation. */
export interface OperationSpec<T> {
  readonly method: HttpMethod;
  /** Path relative to the base URL. */
  readonly path: string;
  /** JSON body; `bigint` values are sent as exact numbers. */
  readonly json?: unknown;
  /** Form-encoded body (token requests). */
  readonly form?: Readonly<Record<string, string>>;
  /** Send `Authorization: Bearer …` (everything but the token endpoint). */
  readonly authenticated: boolean;
  readonly repeatability: Repeatability;
  /** Schema of the envelope's `data`. */
  readonly schema: z.ZodType<T>;
  /** Accept a body without the envelope (a plain OAuth token response). */
  readonly bareBodyAllowed?: boolean;
  /**
   * For unsafe writes: after an attempt that may have been performed, look on the platform. Return
   * the result to finish with, or undefined to send again. Without it such a failure is final.
   */
  readonly resolveAmbiguous?: (error: DevicePlatformError) => Promise<T | undefined>;
  /** Sentence added to the error when an ambiguous failure is final. */
  readonly ambiguousNote?: string;
}

/** Settings of the executor. */
export interface ExecutorOptions {
  readonly transport: HttpTransport;
  readonly tokens: TokenSource;
  readonly retry: RetryOptions;
  readonly onEvent?: RequestEventListener;
  readonly userAgent: string;
  readonly random?: () => number;
}

type Interpreted<T> =
  | { readonly ok: true; readonly value: T }
  | {
      readonly ok: false;
      readonly error: DevicePlatformError;
      readonly outcome: AttemptOutcome;
      readonly retryAfter?: string;
    };

/** Runs operations with the client's retry policy. */
export class RequestExecutor {
  constructor(private readonly options: ExecutorOptions) {}

  /** Performs `spec`, retrying as its repeatability allows; resolves with the parsed `data`. */
  async execute<T>(spec: OperationSpec<T>): Promise<T> {
    let attempt = 0;
    let retries = 0;
    let authRetried = false;
    let ambiguousSeen = false;
    while (true) {
      attempt += 1;
      const token = spec.authenticated ? await this.options.tokens.getAccessToken() : undefined;
      const result = await this.options.transport.send(this.buildRequest(spec, token));
      const interpreted = this.interpret(spec, result, attempt);
      if (interpreted.ok) {
        this.emit(spec, result, attempt);
        return interpreted.value;
      }
      const { error, outcome, retryAfter } = interpreted;

      // A rejected token is replaced once; the request never ran, so any operation may repeat.
      if (token !== undefined && error.status === 401 && !authRetried) {
        authRetried = true;
        this.options.tokens.invalidate(token);
        this.emit(spec, result, attempt, error, 0);
        continue;
      }

      let decision = decideRetry(outcome, spec.repeatability);
      // A conflict after an unconfirmed first attempt is most likely that attempt's own success.
      const conflictAfterAmbiguity = decision === "stop" && ambiguousSeen && error.code === "conflict";
      if (decision === "ambiguous" || conflictAfterAmbiguity) {
        ambiguousSeen = true;
        if (!spec.resolveAmbiguous) {
          this.emit(spec, result, attempt, error);
          throw withNote(
            error,
            spec.ambiguousNote ?? "the request may have been performed; it was not repeated",
            true,
          );
        }
        const found = await spec.resolveAmbiguous(error);
        if (found !== undefined) {
          this.emit(spec, result, attempt, error);
          return found;
        }
        decision = conflictAfterAmbiguity ? "stop" : "retry";
      }

      if (decision === "retry" && retries < this.options.retry.maxRetries) {
        retries += 1;
        const delay = retryDelayMs(retries, retryAfter, this.options.retry, this.options.random);
        this.emit(spec, result, attempt, error, delay);
        await sleep(delay);
        continue;
      }
      this.emit(spec, result, attempt, error);
      throw error;
    }
  }

  private buildRequest(spec: OperationSpec<unknown>, token: string | undefined): HttpRequest {
    const headers: Record<string, string> = {
      accept: "application/json",
      "user-agent": this.options.userAgent,
    };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (spec.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(spec.form).toString();
    } else if (spec.json !== undefined) {
      headers["content-type"] = "application/json";
      body = stringifyLosslessJson(spec.json);
    }
    return { method: spec.method, path: spec.path, headers, body };
  }

  private interpret<T>(spec: OperationSpec<T>, result: HttpResult, attempts: number): Interpreted<T> {
    const where = { method: spec.method, path: spec.path, attempts };
    if (result.kind === "failure") {
      const { failure } = result;
      return {
        ok: false,
        error: new TransportError({ ...where, reason: failure.reason, cause: failure.cause }),
        outcome: { kind: "transport", performed: failure.performed, transient: failure.transient },
      };
    }
    const outcome: AttemptOutcome = { kind: "response", status: result.status };
    const body = tryParse(result.text);
    if (result.status < 200 || result.status >= 300) {
      const error = errorFromResponse({
        ...where,
        status: result.status,
        body: body.ok ? body.value : undefined,
        bodyText: result.text,
        headerRequestId: result.requestId,
      });
      return { ok: false, error, outcome, retryAfter: result.retryAfter };
    }
    const shapeError = (reason: string, requestId?: string) =>
      ({
        ok: false,
        outcome,
        error: new ResponseShapeError({ ...where, status: result.status, reason, requestId }),
      }) as const;
    if (!body.ok) return shapeError("the response is not JSON", result.requestId);

    const envelope = this.unwrap(spec, body.value);
    if (!envelope.ok) return shapeError(envelope.reason, result.requestId);
    const requestId = envelope.requestId ?? result.requestId;
    if (envelope.failed) {
      const error = errorFromResponse({
        ...where,
        status: result.status,
        body: body.value,
        headerRequestId: requestId,
      });
      return { ok: false, error, outcome };
    }
    const data = spec.schema.safeParse(envelope.data);
    if (!data.success)
      return shapeError(`unexpected response shape: ${describeIssues(data.error)}`, requestId);
    return { ok: true, value: data.data };
  }

  private unwrap(
    spec: OperationSpec<unknown>,
    body: unknown,
  ): { ok: true; failed: boolean; data: unknown; requestId?: string } | { ok: false; reason: string } {
    if (body === undefined) return { ok: true, failed: false, data: undefined };
    const isObject = typeof body === "object" && body !== null && !Array.isArray(body);
    if (spec.bareBodyAllowed && isObject && !("status" in body))
      return { ok: true, failed: false, data: body };
    const envelope = envelopeSchema.safeParse(body);
    if (!envelope.success)
      return { ok: false, reason: `not a response envelope: ${describeIssues(envelope.error, "")}` };
    const { status, data, requestId } = envelope.data;
    return { ok: true, failed: status === "Failed", data, requestId };
  }

  private emit(
    spec: OperationSpec<unknown>,
    result: HttpResult,
    attempt: number,
    error?: DevicePlatformError,
    retryInMs?: number,
  ): void {
    emitEvent(this.options.onEvent, {
      method: spec.method,
      path: redactText(spec.path),
      status: result.kind === "response" ? result.status : null,
      durationMs: result.durationMs,
      attempt,
      ...(retryInMs === undefined ? {} : { retryInMs }),
      ...(error ? { errorCode: error.code } : {}),
      ...(error?.errCode ? { errCode: error.errCode } : {}),
    });
  }
}

/** Parses a body; an empty body is `undefined` (some servers answer DELETE with nothing). */
function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === "") return { ok: true, value: undefined };
  try {
    return { ok: true, value: parseLosslessJson(text) };
  } catch {
    return { ok: false };
  }
}

/** A short account of schema mismatches, by field path; no values, so nothing secret can leak. */
function describeIssues(error: z.ZodError, root = "data"): string {
  const issues = error.issues.slice(0, 5).map((issue) => {
    const path = [root, ...issue.path.map(String)].filter((p) => p !== "").join(".");
    return `${path || "body"}: ${issue.message}`;
  });
  const more = error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : "";
  return `${issues.join("; ")}${more}`;
}
