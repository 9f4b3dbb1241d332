/**
 * A scripted platform on undici's MockAgent: routes by "METHOD /path", a token endpoint that issues
 * numbered tokens, bearer checks, and a log of every request, for unit tests of the client.
 */
import { MockAgent } from "undici";
import { DevicePlatformClient, type DevicePlatformClientOptions, type RequestEvent } from "../../../../sdk";

export const ORIGIN = "https://platform.test";
export const CLIENT_ID = "unit-client";
export const CLIENT_SECRET = "unit-secret-s3cr3t-value";

/** A request as the fake platform saw it. */
export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** What a route answers: a status and body, or an error thrown as a network failure. */
export interface FakeReply {
  readonly status?: number;
  /** An object is sent as JSON; a string is sent verbatim (for big integers and non-JSON bodies). */
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

export type Route = (request: FakeRequest) => FakeReply;

/** The success envelope. */
export function ok(data: unknown, requestId = "r-ok"): FakeReply {
  return { status: 200, body: { status: "Success", requestId, data } };
}

/** The failure envelope the design document decided on. */
export function failed(status: number, errCode: string, errMsg: string, requestId = "r-fail"): FakeReply {
  return { status, body: { status: "Failed", requestId, errCode, errMsg, data: null } };
}

/** An error that makes the request fail like a network failure with this code. */
export function networkError(code: string): Error {
  return Object.assign(new Error(`simulated ${code}`), { code });
}

/** A platform scripted per test. Routes may throw {@link networkError} to simulate resets. */
export class FakePlatform {
  readonly agent = new MockAgent();
  readonly requests: FakeRequest[] = [];
  readonly events: RequestEvent[] = [];
  private readonly routes = new Map<string, Route>();
  /** Replies (or network errors) to give, in order, before the route answers again. */
  private readonly injected = new Map<string, (FakeReply | Error)[]>();
  /** Tokens the server currently accepts. */
  readonly validTokens = new Set<string>();
  readonly validRefreshTokens = new Set<string>();
  private issued = 0;
  /** Token lifetime the fake announces. */
  expiresIn = 3600;
  /** Answer token requests with a bare Token_Details instead of the envelope. */
  bareTokens = false;

  constructor(readonly origin: string = ORIGIN) {
    this.agent.disableNetConnect();
    this.agent
      .get(origin)
      .intercept({ path: () => true, method: () => true })
      .reply((opts) => this.dispatch(opts))
      .persist();
    this.on("POST /oauth/token", (request) => this.token(request));
  }

  /** Adds or replaces a route; `key` is "METHOD /path" with the exact path. */
  on(key: string, route: Route): this {
    this.routes.set(key, route);
    return this;
  }

  /**
   * Answers the next requests for "METHOD /path" with `steps` (a reply, or an error thrown as a
   * network failure), before authentication and before the route; then the route answers again.
   */
  inject(key: string, ...steps: (FakeReply | Error)[]): this {
    this.injected.set(key, [...(this.injected.get(key) ?? []), ...steps]);
    return this;
  }

  /** A client talking to this platform, with fast retries. */
  client(options: Partial<DevicePlatformClientOptions> = {}): DevicePlatformClient {
    return new DevicePlatformClient({
      baseUrl: this.origin,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      dispatcher: this.agent,
      retry: { baseDelayMs: 1, maxDelayMs: 5, retryAfterCapMs: 50 },
      onEvent: (event) => this.events.push(event),
      ...options,
    });
  }

  /** Requests seen for "METHOD /path". */
  count(key: string): number {
    return this.requests.filter((r) => `${r.method} ${r.path}` === key).length;
  }

  /** Forgets every issued token, as a server restart or expiry would. */
  revokeAccessTokens(): void {
    this.validTokens.clear();
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  private dispatch(opts: { path: string; method: string; headers?: unknown; body?: unknown }) {
    const request: FakeRequest = {
      method: opts.method,
      path: opts.path,
      headers: normaliseHeaders(opts.headers),
      body: typeof opts.body === "string" ? opts.body : "",
    };
    this.requests.push(request);
    const key = `${request.method} ${request.path}`;
    const step = this.injected.get(key)?.shift();
    if (step instanceof Error) throw step;
    const route = this.routes.get(key);
    const reply =
      step ??
      (route ? this.authorised(request, route) : failed(404, "route_not_found", `no route ${request.path}`));
    const body = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? null);
    return { statusCode: reply.status ?? 200, data: body, responseOptions: { headers: reply.headers ?? {} } };
  }

  private authorised(request: FakeRequest, route: Route): FakeReply {
    if (request.path === "/oauth/token") return route(request);
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (!token || !this.validTokens.has(token)) return failed(401, "authentication_failed", "invalid token");
    return route(request);
  }

  private token(request: FakeRequest): FakeReply {
    const form = new URLSearchParams(request.body);
    const grant = form.get("grant_type");
    if (grant === "client_credentials") {
      if (form.get("client_id") !== CLIENT_ID || form.get("client_secret") !== CLIENT_SECRET) {
        return failed(401, "authentication_failed", "bad client credentials");
      }
    } else if (grant === "refresh_token") {
      const refresh = form.get("refresh_token") ?? "";
      if (!this.validRefreshTokens.has(refresh))
        return failed(401, "authentication_failed", "refresh token rejected");
      this.validRefreshTokens.delete(refresh);
    } else {
      return failed(400, "invalid_parameter", "grant_type");
    }
    this.issued += 1;
    // A refresh replaces the previous access token, as the platform documents.
    this.validTokens.clear();
    const details = {
      access_token: `at-${this.issued}-f00dface`,
      refresh_token: `rt-${this.issued}-deadbeef`,
      expires_in: this.expiresIn,
      refresh_token_expires_in: 2_592_000,
    };
    this.validTokens.add(details.access_token);
    this.validRefreshTokens.add(details.refresh_token);
    return this.bareTokens ? { status: 200, body: details } : ok(details, `r-token-${this.issued}`);
  }
}

function normaliseHeaders(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2)
      out[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
  } else if (headers && typeof headers === "object") {
    for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = String(v);
  }
  return out;
}
