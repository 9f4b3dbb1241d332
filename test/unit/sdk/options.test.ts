import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { DevicePlatformClient, isLoopbackHost } from "../../../sdk";

const base = { clientId: "id", clientSecret: "very-secret-value" };

describe("client options", () => {
  it("refuses plain http:// to a non-loopback host", () => {
    for (const baseUrl of [
      "http://platform.example.com",
      "http://10.0.0.5:8080",
      "http://[::2]/",
      "ftp://x.test",
    ]) {
      expect(() => new DevicePlatformClient({ ...base, baseUrl })).toThrow(/https/);
    }
  });

  it("allows https anywhere and http on loopback", async () => {
    for (const baseUrl of [
      "https://platform.example.com",
      "http://127.0.0.1:9000",
      "http://127.8.9.10",
      "http://localhost:3000/",
      "http://[::1]:8080",
    ]) {
      const client = new DevicePlatformClient({ ...base, baseUrl });
      await client.close();
    }
  });

  it("recognises loopback hosts exactly", () => {
    expect(isLoopbackHost("127.0.0.1")).toBe(true);
    expect(isLoopbackHost("[::1]")).toBe(true);
    expect(isLoopbackHost("localhost")).toBe(true);
    expect(isLoopbackHost("127.0.0.1.example.com")).toBe(false);
    expect(isLoopbackHost("128.0.0.1")).toBe(false);
  });

  it("refuses credentials in the URL, empty secrets and bad numbers", () => {
    expect(() => new DevicePlatformClient({ ...base, baseUrl: "https://u:p@x.test" })).toThrow(/credentials/);
    expect(() => new DevicePlatformClient({ ...base, baseUrl: "https://x.test?access_token=1" })).toThrow(
      /query/,
    );
    expect(() => new DevicePlatformClient({ ...base, clientSecret: " ", baseUrl: "https://x.test" })).toThrow(
      /clientSecret/,
    );
    expect(() => new DevicePlatformClient({ ...base, baseUrl: "https://x.test", concurrency: 0 })).toThrow(
      /concurrency/,
    );
    expect(() => new DevicePlatformClient({ ...base, baseUrl: "https://x.test", maxRetries: -1 })).toThrow(
      /maxRetries/,
    );
    expect(
      () => new DevicePlatformClient({ ...base, baseUrl: "https://x.test", rateLimitWaitMs: -1 }),
    ).toThrow("rateLimitWaitMs must be a non-negative number");
  });

  it("never shows the client secret when the client is logged", async () => {
    const client = new DevicePlatformClient({ ...base, baseUrl: "https://x.test/" });
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain("very-secret-value");
    expect(JSON.stringify(client)).toBe('{"baseUrl":"https://x.test","clientId":"id"}');
    await client.close();
  });
});
