/** Tokens that expire mid-run (the emulator's clock jumps) are refreshed, or re-obtained, transparently. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serialNumbers, startHarness, type Harness } from "./support/harness";

let harness: Harness;
const nextSn = serialNumbers();

beforeAll(async () => {
  harness = await startHarness({ tokenTtlSeconds: 60, refreshTokenTtlSeconds: 300 });
});
afterAll(() => harness.stop());

async function tokenRequests(): Promise<number> {
  return (await harness.emulator.control.counters()).byRoute["POST /oauth/token"] ?? 0;
}

describe("token expiry mid-run", () => {
  it("refreshes after the access token expired, and uses client credentials after the refresh token expired", async () => {
    const { client, emulator, events } = harness;
    const { deviceId } = await client.addDevice({ snDevEUI: nextSn(), name: "t" });
    await emulator.control.resetCounters();

    // Access token expired on the server's clock: one 401, one refresh, the request repeated.
    await emulator.control.advanceClock(61);
    await Promise.all(Array.from({ length: 20 }, () => client.getDevice(deviceId)));
    expect(await tokenRequests()).toBe(1);
    expect(events.filter((e) => e.status === 401).length).toBeGreaterThanOrEqual(1);

    // Both tokens expired: the refresh is rejected and client credentials are used again.
    await emulator.control.advanceClock(400);
    await emulator.control.resetCounters();
    expect((await client.getDevice(deviceId)).deviceId).toBe(deviceId);
    expect(await tokenRequests()).toBe(2);

    // Repeated expiries during a run of operations never surface as errors.
    for (let i = 0; i < 5; i += 1) {
      await emulator.control.advanceClock(61);
      await client.updateDevice({ deviceId, name: `t${i}` });
    }
    expect((await client.getDevice(deviceId)).name).toBe("t4");
  });
});
