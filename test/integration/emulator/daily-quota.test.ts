/**
 * `--daily-quota N` (startEmulator's `dailyQuota`): at most N admitted requests per application per
 * emulator day, then 429 `quota_exhausted` without `Retry-After`, until the clock control moves the
 * emulator to the next day. Token requests do not count; the control API reports and sets the use.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS, DEFAULT_APPLICATION_ID, startEmulator, type RunningEmulator } from "../../../emulator";
import { startCli } from "./support/cli-process";
import { PlatformApi } from "./support/platform-api";

let emulator: RunningEmulator;
let api: PlatformApi;

beforeAll(async () => {
  emulator = await startEmulator({ dailyQuota: 3 });
});
afterEach(() => emulator.control.reset());
afterAll(() => emulator.stop());

const search = () => api.call("POST", "/rps/search", { pageNumber: 1, pageSize: 1 });

async function used() {
  return (await emulator.control.quota()).applications[DEFAULT_APPLICATION_ID];
}

describe("daily request quota", () => {
  it("serves N requests a day, then answers 429 quota_exhausted (no Retry-After), renewed the next emulator day", async () => {
    api = new PlatformApi(emulator.url);
    await api.token();
    const served = [await search(), await search(), await search()];
    expect(served.map((r) => r.status)).toEqual([200, 200, 200]);
    const refused = await search();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ status: "Failed", errCode: "quota_exhausted", data: null });
    expect(refused.body.requestId).toMatch(/\S/);
    expect(refused.body.errMsg).toMatch(/daily request quota of 3 requests for this application is spent/);
    expect(refused.headers.get("retry-after")).toBeNull();
    // A refused request is not performed and does not count; it is counted as refused.
    expect(await used()).toEqual({ used: 3, remaining: 0, refused: 1 });
    // Refused again however often it is asked the same day.
    expect((await search()).body.errCode).toBe("quota_exhausted");

    const { nextDayAt } = await emulator.control.quota();
    await emulator.control.advanceClock(Math.ceil((nextDayAt - Date.now()) / 1000) + 1);
    expect((await emulator.control.quota()).day).toBe(Math.floor(nextDayAt / DAY_MS));
    // Tokens expired over the day; a new one does not count against the quota.
    api = new PlatformApi(emulator.url);
    await api.token();
    expect((await search()).status).toBe(200);
    expect(await used()).toEqual({ used: 1, remaining: 2, refused: 0 });
  });

  it("does not count token requests nor requests refused for their token", async () => {
    api = new PlatformApi(emulator.url);
    await api.token();
    await api.token();
    const unauthorized = await api.call(
      "POST",
      "/rps/search",
      { pageNumber: 1, pageSize: 1 },
      { token: "bogus" },
    );
    expect(unauthorized.status).toBe(401);
    expect(await used()).toBeUndefined();
    expect((await search()).status).toBe(200);
    expect(await used()).toEqual({ used: 1, remaining: 2, refused: 0 });
  });

  it("lets a test set the day's use, as used or remaining, and the quota itself", async () => {
    api = new PlatformApi(emulator.url);
    await api.token();
    const set = await emulator.control.setQuota({ remaining: 1 });
    expect(set.applications[DEFAULT_APPLICATION_ID]).toEqual({ used: 2, remaining: 1, refused: 0 });
    expect((await search()).status).toBe(200);
    expect((await search()).status).toBe(429);
    await emulator.control.setQuota({ used: 0, dailyQuota: 1 });
    expect((await emulator.control.quota()).dailyQuota).toBe(1);
    expect((await search()).status).toBe(200);
    expect((await search()).body.errCode).toBe("quota_exhausted");
    await emulator.control.setQuota({ dailyQuota: null });
    expect((await search()).status).toBe(200);
    expect(await used()).toEqual({ used: 2, remaining: null, refused: 2 });
    // A reset forgets the use and gives the option's quota back.
    await emulator.control.reset();
    expect(await emulator.control.quota()).toMatchObject({ dailyQuota: 3, applications: {} });
  });

  it("refuses a quota change that gives both used and remaining, naming the rule", async () => {
    await expect(emulator.control.setQuota({ used: 1, remaining: 1 })).rejects.toThrow(
      /invalid quota change: give used or remaining, not both/,
    );
  });

  it("counts the day's use without a quota, refusing nothing", async () => {
    const unlimited = await startEmulator();
    try {
      const client = new PlatformApi(unlimited.url);
      await client.token();
      for (let i = 0; i < 5; i += 1) {
        expect((await client.call("POST", "/rps/search", { pageNumber: 1, pageSize: 1 })).status).toBe(200);
      }
      const view = await unlimited.control.quota();
      expect(view.dailyQuota).toBeNull();
      expect(view.applications[DEFAULT_APPLICATION_ID]).toEqual({ used: 5, remaining: null, refused: 0 });
    } finally {
      await unlimited.stop();
    }
  });

  it("is set by the CLI's --daily-quota", async () => {
    const cli = await startCli(["--port", "0", "--daily-quota", "1"]);
    try {
      const url = /listening on (http:\/\/\S+)/.exec(cli.firstLine)?.[1] ?? "";
      const client = new PlatformApi(url);
      await client.token();
      const first = await client.call("POST", "/rps/search", { pageNumber: 1, pageSize: 1 });
      const second = await client.call("POST", "/rps/search", { pageNumber: 1, pageSize: 1 });
      expect([first.status, second.status]).toEqual([200, 429]);
      expect(second.body.errCode).toBe("quota_exhausted");
    } finally {
      cli.child.kill("SIGTERM");
      await cli.exited;
    }
  });
});
