import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { PlatformApi } from "./support/platform-api";

let emulator: RunningEmulator;
let api: PlatformApi;

beforeAll(async () => {
  emulator = await startEmulator({ rateLimit: 5 });
  api = new PlatformApi(emulator.url);
  await api.token();
});
afterAll(() => emulator.stop());

const search = () => api.call("POST", "/rps/search", { pageNumber: 1, pageSize: 1 });

describe("rate limit per application", () => {
  it("answers 429 rate_limited with Retry-After beyond N requests per second, and serves again later", async () => {
    // The limiter counts in one-second wall-clock windows. Fire ten requests at the start of a window;
    // if a busy machine let them straddle two windows, the split is unknown, so try again.
    let responses: Awaited<ReturnType<typeof search>>[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await sleep(1000 - (Date.now() % 1000));
      const windowEnd = Date.now() - (Date.now() % 1000) + 1000;
      responses = await Promise.all(Array.from({ length: 10 }, search));
      if (Date.now() < windowEnd) break;
    }
    expect(responses.filter((r) => r.status === 200)).toHaveLength(5);
    const limited = responses.filter((r) => r.status === 429);
    expect(limited).toHaveLength(5);
    expect(limited[0]?.body.errCode).toBe("rate_limited");
    expect(limited[0]?.headers.get("retry-after")).toBe("1");
    await sleep(1000);
    expect((await search()).status).toBe(200);
    const counters = await emulator.control.counters();
    expect(counters.byRoute["POST /rps/search"]).toBeGreaterThanOrEqual(11);
  });

  it("neither limits nor counts token grants: the window is the application's operations'", async () => {
    // As in the test above, a window that a busy machine let the requests straddle is tried again.
    let grants: Awaited<ReturnType<PlatformApi["issueToken"]>>[] = [];
    let searches: Awaited<ReturnType<typeof search>>[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await sleep(1000 - (Date.now() % 1000));
      const windowEnd = Date.now() - (Date.now() % 1000) + 1000;
      grants = await Promise.all(Array.from({ length: 8 }, () => api.issueToken()));
      searches = await Promise.all(Array.from({ length: 5 }, search));
      if (Date.now() < windowEnd) break;
    }
    expect(grants.every((grant) => typeof grant.access_token === "string")).toBe(true);
    expect(searches.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it("does not limit when no rate is set", async () => {
    const unlimited = await startEmulator();
    try {
      const client = new PlatformApi(unlimited.url);
      const responses = await Promise.all(
        Array.from({ length: 30 }, () => client.call("POST", "/rps/search", { pageNumber: 1, pageSize: 1 })),
      );
      expect(responses.every((r) => r.status === 200)).toBe(true);
    } finally {
      await unlimited.stop();
    }
  });
});
