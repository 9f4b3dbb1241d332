/**
 * Transport failures say what to check: the host, the setting it came from (devplatform:baseUrl /
 * DEVPLATFORM_BASE_URL), and, by kind, what to look at. A host that does not resolve is not retried
 * (the DNS's "no such name" is an answer, not a hiccup); one that refuses connections is, since a
 * platform restarting behind its balancer refuses for a moment and the request provably never left.
 */
import { createServer } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { clearTokenCache, DevicePlatformClient, type DevicePlatformError } from "../../../sdk";
import { CLIENT_ID, CLIENT_SECRET, FakePlatform, networkError } from "./support/fake-platform";

const TOKEN = "POST /oauth/token";
let platform: FakePlatform;

beforeEach(() => {
  clearTokenCache();
  platform = new FakePlatform();
});
afterEach(() => platform.close());

async function failureOf(promise: Promise<unknown>): Promise<DevicePlatformError> {
  return (await promise.then(
    () => undefined,
    (e: unknown) => e,
  )) as DevicePlatformError;
}

describe("a base URL whose host does not resolve (ENOTFOUND)", () => {
  it("fails after one attempt, naming the host and the setting", async () => {
    platform.inject(TOKEN, ...Array.from({ length: 11 }, () => networkError("ENOTFOUND")));
    const error = await failureOf(platform.client({ maxRetries: 10 }).getDevice("11"));
    expect(platform.count(TOKEN)).toBe(1);
    expect(error.code).toBe("transport_error");
    expect(error.message).toBe(
      "POST /oauth/token failed: host not found (ENOTFOUND): the host platform.test does not resolve: " +
        "check devplatform:baseUrl (DEVPLATFORM_BASE_URL; the client's baseUrl option) for a typo, and this " +
        "machine's DNS; not retried, since a name the DNS says does not exist does not start to within seconds " +
        "(1 attempt)",
    );
  });

  it("a resolver that could not answer (EAI_AGAIN) is retried", async () => {
    platform.inject(TOKEN, networkError("EAI_AGAIN"), networkError("EAI_AGAIN"));
    const error = await failureOf(platform.client({ maxRetries: 1 }).getDevice("11"));
    expect(platform.count(TOKEN)).toBe(2);
    expect(error.message).toContain("the DNS lookup of platform.test failed for now");
    expect(error.message).toContain("devplatform:baseUrl (DEVPLATFORM_BASE_URL");
  });
});

describe("nothing listening at the base URL (ECONNREFUSED)", () => {
  it("names host and port and the setting, after its retries", async () => {
    // A port that was free a moment ago: nothing listens there now.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port: free } = server.address() as { port: number };
        server.close(() => resolve(free));
      });
    });
    const client = new DevicePlatformClient({
      baseUrl: `http://127.0.0.1:${port}`,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      maxRetries: 1,
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
    });
    try {
      const error = await failureOf(client.getDevice("11"));
      expect(error.code).toBe("transport_error");
      expect(error.attempts).toBe(2);
      expect(error.message).toBe(
        `POST /oauth/token failed: connection refused (ECONNREFUSED): nothing accepts connections at ` +
          `127.0.0.1:${port}: check the host and port in devplatform:baseUrl (DEVPLATFORM_BASE_URL; the ` +
          "client's baseUrl option), and that the platform (or the emulator) runs there (2 attempts)",
      );
    } finally {
      await client.close();
    }
  });
});

describe("a reset or a timeout", () => {
  it("names the host and the setting, and the network path to check", async () => {
    platform.inject(TOKEN, networkError("ECONNRESET"));
    const error = await failureOf(platform.client({ maxRetries: 0 }).getDevice("11"));
    expect(error.message).toContain(
      "no answer from platform.test: check devplatform:baseUrl (DEVPLATFORM_BASE_URL; the client's baseUrl " +
        "option), and the network path (a proxy, a firewall) from this machine to the platform",
    );
  });
});
