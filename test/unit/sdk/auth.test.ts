import { afterEach, describe, expect, it } from "vitest";
import { TokenManager, clearTokenCache, tokenCacheKey, type TokenEndpoint } from "../../../sdk/auth";
import { AuthenticationError, TransportError } from "../../../sdk/errors";
import type { TokenDetails } from "../../../sdk/schemas/token";

/** A token endpoint that counts grants and can be told to reject refreshes. */
class FakeEndpoint implements TokenEndpoint {
  grants: string[] = [];
  rejectRefresh = false;
  failRefreshWithTransport = false;
  expiresIn = 3600;
  private n = 0;

  async clientCredentials(): Promise<TokenDetails> {
    this.grants.push("client_credentials");
    return this.issue();
  }

  async refresh(refreshToken: string): Promise<TokenDetails> {
    this.grants.push(`refresh:${refreshToken}`);
    const where = { method: "POST", path: "/oauth/token", attempts: 1 };
    if (this.failRefreshWithTransport) throw new TransportError({ ...where, reason: "connection reset" });
    if (this.rejectRefresh)
      throw new AuthenticationError({ ...where, status: 401, errCode: "authentication_failed" });
    return this.issue();
  }

  private async issue(): Promise<TokenDetails> {
    await new Promise((resolve) => setTimeout(resolve, 5));
    this.n += 1;
    return {
      access_token: `at-${this.n}`,
      refresh_token: `rt-${this.n}`,
      expires_in: this.expiresIn,
      refresh_token_expires_in: 7200,
    };
  }
}

afterEach(() => clearTokenCache());

describe("TokenManager", () => {
  it("makes one token request for many concurrent callers and many managers of one key", async () => {
    const endpoint = new FakeEndpoint();
    const [a, b] = [new TokenManager("k", endpoint), new TokenManager("k", endpoint)];
    const tokens = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).getAccessToken()));
    expect(new Set(tokens)).toEqual(new Set(["at-1"]));
    expect(endpoint.grants).toEqual(["client_credentials"]);
  });

  it("keeps tokens of different keys apart", async () => {
    const endpoint = new FakeEndpoint();
    await new TokenManager("a", endpoint).getAccessToken();
    await new TokenManager("b", endpoint).getAccessToken();
    expect(endpoint.grants).toEqual(["client_credentials", "client_credentials"]);
  });

  it("refreshes ahead of expiry: 60 s before for long lifetimes, 10% before for short ones", async () => {
    let now = 1_000_000;
    const endpoint = new FakeEndpoint();
    const manager = new TokenManager("k", endpoint, () => now);
    expect(await manager.getAccessToken()).toBe("at-1");
    now += 3539_000;
    expect(await manager.getAccessToken()).toBe("at-1");
    now += 2_000; // 3541 s: inside the last 60 s
    expect(await manager.getAccessToken()).toBe("at-2");
    expect(endpoint.grants).toEqual(["client_credentials", "refresh:rt-1"]);

    clearTokenCache();
    endpoint.expiresIn = 100;
    const short = new TokenManager("short", endpoint, () => now);
    await short.getAccessToken();
    now += 89_000;
    expect(await short.getAccessToken()).toBe("at-3");
    now += 2_000; // 91 s of 100: inside the last 10%
    expect(await short.getAccessToken()).toBe("at-4");
  });

  it("falls back to client credentials when the refresh token is rejected or expired", async () => {
    let now = 0;
    const endpoint = new FakeEndpoint();
    const manager = new TokenManager("k", endpoint, () => now);
    await manager.getAccessToken();
    endpoint.rejectRefresh = true;
    now += 3600_000;
    expect(await manager.getAccessToken()).toBe("at-2");
    expect(endpoint.grants).toEqual(["client_credentials", "refresh:rt-1", "client_credentials"]);

    endpoint.rejectRefresh = false;
    now += 7200_000 + 1; // the refresh token's own lifetime is over: do not even try it
    expect(await manager.getAccessToken()).toBe("at-3");
    expect(endpoint.grants.at(-1)).toBe("client_credentials");
  });

  it("does not fall back to client credentials on transport failures of the refresh", async () => {
    let now = 0;
    const endpoint = new FakeEndpoint();
    const manager = new TokenManager("k", endpoint, () => now);
    await manager.getAccessToken();
    endpoint.failRefreshWithTransport = true;
    now += 3600_000;
    await expect(manager.getAccessToken()).rejects.toBeInstanceOf(TransportError);
    expect(endpoint.grants).toEqual(["client_credentials", "refresh:rt-1"]);
  });

  it("invalidates only the token that was rejected", async () => {
    const endpoint = new FakeEndpoint();
    const manager = new TokenManager("k", endpoint);
    const first = await manager.getAccessToken();
    manager.invalidate(first);
    const second = await manager.getAccessToken();
    expect(second).toBe("at-2");
    manager.invalidate(first); // a late 401 for the old token must not throw the new one away
    expect(await manager.getAccessToken()).toBe("at-2");
    expect(endpoint.grants).toEqual(["client_credentials", "refresh:rt-1"]);
  });
});

describe("tokenCacheKey", () => {
  it("differs per client secret, and holds only a short digest of it", () => {
    const right = tokenCacheKey("https://p.test", "app", "the-right-secret");
    const wrong = tokenCacheKey("https://p.test", "app", "the-wrong-secret");
    expect(right).not.toBe(wrong);
    expect(right).toBe(tokenCacheKey("https://p.test", "app", "the-right-secret"));
    expect(right).not.toContain("the-right-secret");
    expect(right).toMatch(/^https:\/\/p\.test\napp\n[0-9a-f]{16}$/);
    expect(tokenCacheKey("https://p.test", "other", "the-right-secret")).not.toBe(right);
  });
});
