/**
 * OAuth 2.0 client-credentials tokens, shared per (baseUrl, clientId, client secret) by every caller
 * and every client instance in the process.
 *
 * Why a module-level cache: a Pulumi deployment creates many clients (one per provider call) and
 * runs resources in parallel; a token per caller would multiply token requests and, because the
 * platform invalidates an access token when a refresh replaces it, make callers knock each other's
 * tokens out. One entry per key holds the token and at most one request in flight for it.
 */
import { createHash } from "node:crypto";
import { DevicePlatformError } from "./errors";
import { registerSecret } from "./redact";
import type { TokenDetails } from "./schemas/token";

/** Performs the two token grants; the manager decides which one and when. */
export interface TokenEndpoint {
  /** `grant_type=client_credentials`. */
  clientCredentials(): Promise<TokenDetails>;
  /** `grant_type=refresh_token`. */
  refresh(refreshToken: string): Promise<TokenDetails>;
}

interface TokenState {
  readonly accessToken: string;
  /** When the access token stops working (ms since epoch, by the local clock). */
  readonly expiresAt: number;
  /** When to replace it: a margin ahead of expiry, so requests never carry a token about to lapse. */
  readonly refreshAt: number;
  readonly refreshToken?: string;
  readonly refreshExpiresAt?: number;
}

interface CacheEntry {
  token?: TokenState;
  inFlight?: Promise<TokenState>;
}

const sharedCache = new Map<string, CacheEntry>();

/** Refresh ahead of expiry by 10% of the lifetime, at most 60 seconds. */
const MAX_REFRESH_MARGIN_MS = 60_000;
const REFRESH_MARGIN_FRACTION = 0.1;

/**
 * Forgets every cached token in this process, e.g. after the client secret was regenerated.
 * Requests already in flight finish with the token they hold.
 */
export function clearTokenCache(): void {
  sharedCache.clear();
}

/** 64 bits of the digest: enough to tell secrets apart, and no help in guessing one. */
const SECRET_DIGEST_CHARS = 16;

/**
 * The cache key: one token per platform, application and client secret. The secret is part of it
 * (as a truncated SHA-256 digest, so the key itself reveals nothing) because the platform issues a
 * token only for the right secret: a client configured with a wrong or an old secret must ask for
 * its own token and fail, not borrow one that another client obtained with the right secret.
 */
export function tokenCacheKey(baseUrl: string, clientId: string, clientSecret: string): string {
  const secretDigest = createHash("sha256").update(clientSecret).digest("hex").slice(0, SECRET_DIGEST_CHARS);
  return `${baseUrl}\n${clientId}\n${secretDigest}`;
}

/** Hands out access tokens from the shared cache, obtaining or refreshing them as needed. */
export class TokenManager {
  constructor(
    private readonly key: string,
    private readonly endpoint: TokenEndpoint,
    private readonly now: () => number = Date.now,
  ) {}

  /** A token that is valid now; concurrent callers share one token request. */
  async getAccessToken(): Promise<string> {
    const entry = this.entry();
    if (entry.inFlight) return (await entry.inFlight).accessToken;
    if (entry.token && this.now() < entry.token.refreshAt) return entry.token.accessToken;
    const request = this.obtain(entry.token).then((token) => {
      entry.token = token;
      return token;
    });
    entry.inFlight = request;
    try {
      return (await request).accessToken;
    } finally {
      if (entry.inFlight === request) entry.inFlight = undefined;
    }
  }

  /**
   * Marks `accessToken` as rejected (the server answered 401), so the next caller refreshes it.
   * A no-op when the cache already holds a newer token: another caller refreshed first.
   */
  invalidate(accessToken: string): void {
    const entry = this.entry();
    if (entry.token?.accessToken === accessToken) {
      entry.token = { ...entry.token, expiresAt: 0, refreshAt: 0 };
    }
  }

  private entry(): CacheEntry {
    let entry = sharedCache.get(this.key);
    if (!entry) {
      entry = {};
      sharedCache.set(this.key, entry);
    }
    return entry;
  }

  /** Refresh when a usable refresh token exists; client credentials when there is none or it is rejected. */
  private async obtain(previous: TokenState | undefined): Promise<TokenState> {
    const refreshToken = previous?.refreshToken;
    const refreshUsable =
      refreshToken !== undefined &&
      (previous?.refreshExpiresAt === undefined || this.now() < previous.refreshExpiresAt);
    if (refreshUsable) {
      const startedAt = this.now();
      try {
        return this.store(await this.endpoint.refresh(refreshToken), startedAt);
      } catch (error) {
        if (!isRejection(error)) throw error;
      }
    }
    const startedAt = this.now();
    return this.store(await this.endpoint.clientCredentials(), startedAt);
  }

  /** Lifetimes count from when the request started, which errs on the side of refreshing early. */
  private store(details: TokenDetails, startedAt: number): TokenState {
    registerSecret(details.access_token);
    registerSecret(details.refresh_token);
    const lifetimeMs = Math.max(0, details.expires_in * 1000);
    const margin = Math.min(MAX_REFRESH_MARGIN_MS, lifetimeMs * REFRESH_MARGIN_FRACTION);
    return {
      accessToken: details.access_token,
      expiresAt: startedAt + lifetimeMs,
      refreshAt: startedAt + lifetimeMs - margin,
      refreshToken: details.refresh_token,
      refreshExpiresAt:
        details.refresh_token_expires_in === undefined
          ? undefined
          : startedAt + details.refresh_token_expires_in * 1000,
    };
  }
}

/** Error codes by which the token endpoint refuses a grant (see {@link isRejection}). */
const REJECTION_CODES: ReadonlySet<string> = new Set([
  "authentication_failed",
  "invalid_request",
  "request_failed",
]);

/**
 * The token endpoint refused the grant: credentials or refresh token rejected, or a failure the SDK
 * cannot name. Transport trouble, 429, 5xx and a wrong base URL are not refusals: trying client
 * credentials instead would not help.
 */
function isRejection(error: unknown): boolean {
  if (!(error instanceof DevicePlatformError)) return false;
  return REJECTION_CODES.has(error.code);
}
