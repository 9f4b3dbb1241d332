/**
 * A deliberately thin HTTP client for the emulator tests: real requests over loopback with undici's
 * fetch, bodies parsed losslessly, nothing hidden (status, headers and raw text are all returned).
 */
import { fetch } from "undici";
import { parseJson, stringifyJson } from "../../../../emulator";

/** The platform's response envelope. */
export interface Envelope<T> {
  status: "Success" | "Failed";
  requestId: string;
  data: T;
  errCode?: string;
  errMsg?: string;
}

/** One HTTP exchange. */
export interface ApiResponse<T> {
  status: number;
  headers: { get(name: string): string | null };
  text: string;
  body: Envelope<T>;
}

/** Options of one request. */
export interface RequestOptions {
  /** Access token; `null` sends none; default the client's own. */
  token?: string | null;
  /** API version segment; default the client's. */
  version?: string;
  /** Body text sent verbatim as JSON (for number literals beyond 2^53). */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** Credentials of the emulator's default application. */
export const CREDENTIALS = { clientId: "demo-client", clientSecret: "demo-secret" };

/** Token_Details. */
export interface TokenDetails {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  refresh_token_expires_in: number;
}

export class PlatformApi {
  private accessToken: string | undefined;

  constructor(
    readonly baseUrl: string,
    readonly version = "v1",
  ) {}

  /** `POST /oauth/token` with a form-encoded body. */
  async tokenRequest(
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<TokenDetails>> {
    const response = await fetch(`${this.baseUrl}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields).toString(),
    });
    return toApiResponse<TokenDetails>(response);
  }

  /** A fresh token pair for the default credentials. */
  async issueToken(): Promise<TokenDetails> {
    const response = await this.tokenRequest({
      grant_type: "client_credentials",
      client_id: CREDENTIALS.clientId,
      client_secret: CREDENTIALS.clientSecret,
    });
    if (response.status !== 200) throw new Error(`token request failed: ${response.text}`);
    return response.body.data;
  }

  /** The client's access token, obtained on first use. */
  async token(): Promise<string> {
    this.accessToken ??= (await this.issueToken()).access_token;
    return this.accessToken;
  }

  /** A request to `/device/openapi/{version}{path}`. */
  async call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const token = options.token === undefined ? await this.token() : options.token;
    const headers: Record<string, string> = { ...options.headers };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const text = options.rawBody ?? (body === undefined ? undefined : stringifyJson(body));
    if (text !== undefined) headers["content-type"] ??= "application/json";
    const url = `${this.baseUrl}/device/openapi/${options.version ?? this.version}${path}`;
    return toApiResponse<T>(await fetch(url, { method, headers, body: text }));
  }

  /** Like {@link call}, but fails the test unless the platform answered 200 Success; returns `data`. */
  async ok<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    options: RequestOptions = {},
  ): Promise<T> {
    const response = await this.call<T>(method, path, body, options);
    if (response.status !== 200 || response.body.status !== "Success") {
      throw new Error(`${method} ${path} → HTTP ${response.status} ${response.text}`);
    }
    return response.body.data;
  }
}

async function toApiResponse<T>(response: Awaited<ReturnType<typeof fetch>>): Promise<ApiResponse<T>> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: parseJson(text) as Envelope<T> };
}
