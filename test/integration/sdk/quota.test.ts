/**
 * The emulator's daily quota met by the SDK: the refusal is a QuotaExhaustedError carrying the
 * platform's requestId, sent once (no retry); a halting client sends nothing after it; the next
 * emulator day (clock control) serves again.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_APPLICATION_ID } from "../../../emulator";
import { QuotaExhaustedError, type DevicePlatformError } from "../../../sdk";
import { serialNumbers, startHarness, type Harness } from "./support/harness";

let harness: Harness;
const nextSn = serialNumbers();

beforeAll(async () => {
  harness = await startHarness({ dailyQuota: 4 }, { maxRetries: 5 });
});
afterAll(() => harness.stop());
beforeEach(async () => {
  await harness.emulator.control.reset({ keepTokens: true });
  harness.events.length = 0;
});

async function refusal(promise: Promise<unknown>): Promise<DevicePlatformError> {
  return promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: DevicePlatformError) => error,
  );
}

const use = async () => (await harness.emulator.control.quota()).applications[DEFAULT_APPLICATION_ID];

describe("a spent daily quota, through the SDK", () => {
  it("is a QuotaExhaustedError with the platform's requestId, sent once, not performed", async () => {
    const { deviceId } = await harness.client.addDevice({ snDevEUI: nextSn(), name: "q-1" });
    await harness.emulator.control.setQuota({ remaining: 0 });
    const sn = nextSn();
    const error = await refusal(harness.client.addDevice({ snDevEUI: sn, name: "q-2" }));
    expect(error).toBeInstanceOf(QuotaExhaustedError);
    expect(error).toMatchObject({ status: 429, errCode: "quota_exhausted", attempts: 1 });
    expect(error.requestId).toMatch(/^[0-9a-f]{32}$/);
    expect(error.errMsg).toMatch(/daily request quota of 4 requests for this application is spent/);
    expect(await use()).toMatchObject({ used: 4, remaining: 0, refused: 1 });
    expect((await harness.emulator.control.state()).devices.map((d) => d.sn)).not.toContain(sn);
    const got = await refusal(harness.client.getDevice(deviceId));
    expect(got).toBeInstanceOf(QuotaExhaustedError);
    expect(harness.events.filter((e) => e.errCode === "quota_exhausted")).toHaveLength(2);
    expect(harness.events.filter((e) => e.retryInMs !== undefined)).toHaveLength(0);
  });

  it("a halting client sends nothing after the first refusal; the next day serves again", async () => {
    const client = harness.newClient({ haltWhenQuotaExhausted: true, concurrency: 1 });
    await harness.emulator.control.setQuota({ remaining: 1 });
    await client.searchDevices({ pageNumber: 1, pageSize: 1 });
    await refusal(client.searchDevices({ pageNumber: 1, pageSize: 1 }));
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => client.searchDevices({ pageNumber: 1, pageSize: 1 })),
    );
    expect(results.every((r) => r.status === "rejected" && r.reason instanceof QuotaExhaustedError)).toBe(
      true,
    );
    expect(await use()).toMatchObject({ used: 4, refused: 1 });
    const { nextDayAt } = await harness.emulator.control.quota();
    await harness.emulator.control.advanceClock(Math.ceil((nextDayAt - Date.now()) / 1000) + 1);
    // A new client (a new deployment) is served the next day.
    const tomorrow = harness.newClient();
    await expect(tomorrow.searchDevices({ pageNumber: 1, pageSize: 1 })).resolves.toBeDefined();
    expect(await use()).toMatchObject({ used: 1, remaining: 3, refused: 0 });
  });
});
