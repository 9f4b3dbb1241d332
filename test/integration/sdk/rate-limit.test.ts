/**
 * The emulator's per-application rate limit (fixed one-second windows): the client's
 * requestsPerSecond keeps under it without a single 429, and without that option the 429s are
 * retried after Retry-After until every request succeeds.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./support/harness";

let harness: Harness;
let deviceId: string;

beforeAll(async () => {
  harness = await startHarness({ rateLimit: 20 }, { concurrency: 16, maxRetries: 10 });
  ({ deviceId } = await harness.client.addDevice({ snDevEUI: "24A0B0C0D0E0F001", name: "limited" }));
});
afterAll(() => harness.stop());
beforeEach(async () => {
  // Start each test in a fresh one-second window.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  harness.events.length = 0;
});

describe("rate limits", () => {
  it("stays under the platform's limit with requestsPerSecond", async () => {
    const client = harness.newClient({ requestsPerSecond: 15, concurrency: 16 });
    const started = Date.now();
    await Promise.all(Array.from({ length: 45 }, () => client.getDevice(deviceId)));
    expect(harness.events.filter((e) => e.status === 429)).toHaveLength(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2800);
  });

  it("without it, retries the 429s until all requests succeed", async () => {
    const results = await Promise.all(Array.from({ length: 60 }, () => harness.client.getDevice(deviceId)));
    expect(results.every((d) => d.deviceId === deviceId)).toBe(true);
    const limited = harness.events.filter((e) => e.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited.every((e) => e.retryInMs !== undefined && e.retryInMs > 0)).toBe(true);
  });
});
