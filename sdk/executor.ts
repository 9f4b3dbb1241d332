/**
 * Runs one platform operation end to end: authorisation, attempts, retries, parsing, errors and
 * events. Operations describe themselves with an {@link OperationSpec}; this file holds the policy
 * that is the same for all of them.
 */
import type { z } from "zod";
import {
  DevicePlatformError,
  QuotaExhaustedError,
  ResponseShapeError,
  TransportError,
  withNote,
} from "./errors";
import { classifyFailure } from "./classify-response";
import { emitEvent, type RequestEventListener } from "./events";
import { stringifyLosslessJson } from "./lossless-json";
import type { AdaptivePacer, PaceListener } from "./pacer";
import type { QuotaHaltShare } from "./quota-halt";
import { QuotaHalt } from "./quota-halt-state";
import { RateLimitWait } from "./rate-limit-wait";
import { redactText } from "./redact";
import { describeIssues, isSuccessStatus, readSuccess, tryParse } from "./response-body";
import {
  decideRetry,
  retryDelayMs,
  sleep,
  type AttemptOutcome,
  type Repeatability,
  type RetryOptions,
} from "./retry";
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
  /**
   * Send `Authorization: Bearer …` (everything but the token endpoint). Only these keep to the
   * client's pace (pacer.ts): the application's rate limit counts its operations, and a token grant
   * is not one (the emulator's limiter runs after the token is checked; the platform's reference
   * says nothing of grants).
   */
  readonly authenticated: boolean;
  readonly repeatability: Repeatability;
  /** Schema of the envelope's `data`. */
  readonly schema: z.ZodType<T>;
  /**
   * A request to the OAuth token endpoint: a bare token body without the envelope is accepted, and
   * refusals are read as OAuth servers send them (see `ResponseErrorContext.tokenEndpoint`).
   */
  readonly tokenEndpoint?: boolean;
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
  /** The client's base URL, named by errors that say it looks wrong. */
  readonly baseUrl: string;
  readonly transport: HttpTransport;
  readonly tokens: TokenSource;
  readonly retry: RetryOptions;
  readonly onEvent?: RequestEventListener;
  readonly userAgent: string;
  readonly random?: () => number;
  /** See `DevicePlatformClientOptions.haltWhenQuotaExhausted`. */
  readonly haltWhenQuotaExhausted?: boolean;
  /** See `DevicePlatformClientOptions.quotaHaltShare`. */
  readonly quotaHaltShare?: QuotaHaltShare;
  /** The pace of the client's requests (see pacer.ts). */
  readonly pacer: AdaptivePacer;
  /** Told when the pace slows or pauses (see `DevicePlatformClientOptions.onPace`). */
  readonly onPace?: PaceListener;
  /** How long one operation may wait out `rate_limited` refusals; see `rateLimitWaitMs`. */
  readonly rateLimitWaitMs: number;
}

type Interpreted<T> =
  | { readonly ok: true; readonly value: T; readonly requestId: string | undefined }
  | {
      readonly ok: false;
      readonly error: DevicePlatformError;
      readonly outcome: AttemptOutcome;
      readonly retryAfter?: string;
    };

/** Runs operations with the client's retry policy. */
export class RequestExecutor {
  private readonly halt: QuotaHalt;

  constructor(private readonly options: ExecutorOptions) {
    if (options.onPace) options.pacer.listen(options.onPace);
    this.halt = new QuotaHalt(
      options.baseUrl,
      options.haltWhenQuotaExhausted ? options.quotaHaltShare : undefined,
      options.haltWhenQuotaExhausted ?? false,
    );
  }

  /** Performs `spec`, retrying as its repeatability allows; resolves with the parsed `data`. */
  async execute<T>(spec: OperationSpec<T>): Promise<T> {
    return (await this.executeWithRequestId(spec)).value;
  }

  /**
   * Like {@link execute}, with the `requestId` of the answer (the envelope's, else the response
   * header's): for operations whose answer is nothing but that id (a service call).
   */
  async executeWithRequestId<T>(
    spec: OperationSpec<T>,
  ): Promise<{ value: T; requestId: string | undefined }> {
    let attempt = 0;
    let retries = 0;
    let authRetried = false;
    let ambiguousSeen = false;
    const { pacer } = this.options;
    const limited = new RateLimitWait(pacer, this.options.rateLimitWaitMs);
    while (true) {
      // Checked before the token is fetched (a halted operation is named, not its token request),
      // and again once the attempt leaves the client's queue, where it may have waited long.
      const before = attempt;
      await this.halt.throwIfHalted(spec, before);
      attempt += 1;
      const token = spec.authenticated ? await this.options.tokens.getAccessToken() : undefined;
      // A token grant takes no turn of the pace, nor counts among what passed (see `authenticated`):
      // counted, the first grant of each of 4 processes read a limit of 10 as up to 14.
      let ticket: number | undefined;
      const result = await this.options.transport
        .send(this.buildRequest(spec, token), async () => {
          if (spec.authenticated) ticket = await pacer.acquire();
          await this.halt.throwIfHalted(spec, before);
        })
        .finally(() => {
          if (ticket !== undefined) pacer.release();
        });
      const interpreted = this.interpret(spec, result, attempt);
      if (interpreted.ok) {
        if (ticket !== undefined) pacer.passed(ticket);
        this.emit(spec, result, attempt);
        return { value: interpreted.value, requestId: interpreted.requestId };
      }
      const { error, outcome, retryAfter } = interpreted;
      if (error instanceof QuotaExhaustedError) this.halt.haltOn(error);

      // `rate_limited` slows the whole client and the operation waits its turn again, within a
      // time budget rather than a count (rate-limit-wait.ts).
      const wait = limited.onAnswer(outcome, ticket, retryAfter);
      if (wait !== undefined) {
        this.emit(spec, result, attempt, error, "retryInMs" in wait ? wait.retryInMs : undefined);
        if ("retryInMs" in wait) {
          // The refused request waits its Retry-After; the others keep the lowered pace (pacer.ts).
          await sleep(wait.retryInMs);
          continue;
        }
        throw withNote(error, wait.note, false);
      }

      // A rejected token is replaced once; the request never ran, so any operation may repeat.
      // `outcome.status` is 401 also for HTTP 200 with `status: "Failed"` and authentication_failed.
      if (token !== undefined && isTokenRejection(error, outcome) && !authRetried) {
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
          return { value: found, requestId: undefined };
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
    const where = { method: spec.method, path: spec.path, attempts, baseUrl: this.options.baseUrl };
    if (result.kind === "failure") {
      const { failure } = result;
      return {
        ok: false,
        error: new TransportError({ ...where, reason: failure.reason, cause: failure.cause }),
        outcome: { kind: "transport", performed: failure.performed, transient: failure.transient },
      };
    }
    const body = tryParse(result.text);
    const success = isSuccessStatus(result.status) ? readSuccess(spec, body) : undefined;
    if (success === undefined) {
      // An HTTP error, `status: "Failed"`, or not the platform's envelope at all.
      const failure = classifyFailure({
        ...where,
        status: result.status,
        body: body.ok ? body.value : undefined,
        bodyText: result.text,
        headerRequestId: result.requestId,
        tokenEndpoint: spec.tokenEndpoint,
      });
      const outcome: AttemptOutcome = {
        kind: "response",
        status: failure.status,
        quotaExhausted: failure.error instanceof QuotaExhaustedError,
        unreadable: failure.unreadable,
      };
      return { ok: false, error: failure.error, outcome, retryAfter: result.retryAfter };
    }
    const data = spec.schema.safeParse(success.data);
    const requestId = success.requestId ?? result.requestId;
    if (data.success) return { ok: true, value: data.data, requestId };
    const reason = `unexpected response shape: ${describeIssues(data.error)}`;
    // Success said, answer unreadable: performed, its result unknown (as an answer lost on the way).
    return {
      ok: false,
      outcome: { kind: "response", status: result.status, unreadable: true },
      error: new ResponseShapeError({
        ...where,
        status: result.status,
        reason,
        requestId,
        outcomeUnknown: true,
      }),
    };
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

/** A 401, or `status: "Failed"` with authentication_failed: the token may have expired or been replaced. */
function isTokenRejection(error: DevicePlatformError, outcome: AttemptOutcome): boolean {
  return error.code === "authentication_failed" && outcome.kind === "response" && outcome.status === 401;
}
