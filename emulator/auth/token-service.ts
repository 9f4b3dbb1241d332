import { randomBytes } from "node:crypto";
import type { Clock } from "../clock";
import { authenticationFailed } from "../http/emulator-error";
import type { EmulatorStore } from "../state/store";

/** The Token_Details of a token response. */
export interface TokenDetails {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  refresh_token_expires_in: number;
}

/** Who may obtain tokens, and for how long tokens live. */
export interface TokenSettings {
  clientId: string;
  clientSecret: string;
  /** The application the credentials belong to. */
  applicationId: string;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
}

// Expired tokens are swept only when this many are held, so issuing stays O(1) in the common case.
const SWEEP_THRESHOLD = 10_000;
// How many issued tokens the control API can list (for tests that look for leaked tokens).
const ISSUED_LOG_SIZE = 1_000;

function newToken(prefix: string): string {
  return `${prefix}${randomBytes(24).toString("base64url")}`;
}

/**
 * OAuth 2.0 client-credentials and refresh-token grants. Tokens live in the store (so a state file
 * keeps them); expiry follows the emulator clock. A refresh revokes the refresh token it used and the
 * access token issued with it.
 */
export class TokenService {
  private readonly issued: string[] = [];

  constructor(
    private readonly store: EmulatorStore,
    private readonly clock: Clock,
    private readonly settings: TokenSettings,
  ) {}

  /** `grant_type=client_credentials`. */
  grantClientCredentials(clientId: string, clientSecret: string): TokenDetails {
    if (clientId !== this.settings.clientId || clientSecret !== this.settings.clientSecret) {
      throw authenticationFailed("client_id or client_secret is wrong");
    }
    return this.issue(this.settings.applicationId);
  }

  /** `grant_type=refresh_token`. */
  grantRefreshToken(refreshToken: string): TokenDetails {
    const record = this.store.refreshTokens.get(refreshToken);
    if (!record) throw authenticationFailed("refresh_token is unknown or was already used");
    this.store.refreshTokens.delete(refreshToken);
    this.store.accessTokens.delete(record.accessToken);
    if (this.clock.now() >= record.expiresAt) {
      this.store.changed();
      throw authenticationFailed("refresh_token has expired");
    }
    return this.issue(record.applicationId);
  }

  /** The application of a valid access token; 401 when missing, unknown, revoked or expired. */
  authenticate(accessToken: string | undefined): string {
    if (!accessToken) throw authenticationFailed("access token is missing (Authorization: Bearer <token>)");
    const record = this.store.accessTokens.get(accessToken);
    if (!record) throw authenticationFailed("access token is invalid or was replaced by a refresh");
    if (this.clock.now() >= record.expiresAt) throw authenticationFailed("access token has expired");
    return record.applicationId;
  }

  /** The access and refresh tokens issued most recently (up to 1,000), oldest first. */
  issuedTokens(): string[] {
    return [...this.issued];
  }

  private issue(applicationId: string): TokenDetails {
    this.sweepIfLarge();
    const now = this.clock.now();
    const { accessTtlSeconds, refreshTtlSeconds } = this.settings;
    const access = { token: newToken("at."), applicationId, expiresAt: now + accessTtlSeconds * 1000 };
    const refresh = {
      token: newToken("rt."),
      applicationId,
      expiresAt: now + refreshTtlSeconds * 1000,
      accessToken: access.token,
    };
    this.store.accessTokens.set(access.token, access);
    this.store.refreshTokens.set(refresh.token, refresh);
    this.store.changed();
    this.issued.push(access.token, refresh.token);
    if (this.issued.length > ISSUED_LOG_SIZE) this.issued.splice(0, this.issued.length - ISSUED_LOG_SIZE);
    return {
      access_token: access.token,
      refresh_token: refresh.token,
      expires_in: accessTtlSeconds,
      refresh_token_expires_in: refreshTtlSeconds,
    };
  }

  private sweepIfLarge(): void {
    if (this.store.accessTokens.size + this.store.refreshTokens.size < SWEEP_THRESHOLD) return;
    const now = this.clock.now();
    for (const [token, record] of this.store.accessTokens)
      if (now >= record.expiresAt) this.store.accessTokens.delete(token);
    for (const [token, record] of this.store.refreshTokens)
      if (now >= record.expiresAt) this.store.refreshTokens.delete(token);
  }
}
