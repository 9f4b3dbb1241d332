/**
 * The provider's documented numbers, checked where they act, against the emulator: the settings
 * `devplatform:maxRetries` and `devplatform:rateLimitWait` reach the process's platform client (a
 * change that drops either fails here: the requests the emulator counts change), and a DeviceFleet
 * with `concurrency: 64` has 64 adds in flight at once (the process's cap is not lower than the
 * documented range of `concurrency`, 1–64).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import * as os from "node:os";
import path from "node:path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import {
  CLIENT_CONCURRENCY,
  configureRuntime,
  platformClient,
  startNewDeployment,
} from "../../../provider/platform-access/platform-client";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { upFleet } from "./support/fleet-up";

const MAX_RETRIES = 2;
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ control: true });
  const settings: Record<string, string> = {
    "devplatform:baseUrl": emulator.url,
    "devplatform:clientId": "demo-client",
    "devplatform:clientSecret": "demo-secret",
    "devplatform:maxRetries": String(MAX_RETRIES),
    "devplatform:rateLimitWait": "0",
  };
  configureRuntime({ config: { get: (key: string) => settings[key] } });
});
afterAll(async () => {
  await (await platformClient()).close();
  await emulator.stop();
});
beforeEach(async () => {
  await emulator.control.reset();
  // Each test on a machine of its own: the pace is the machine's (pace-store.ts), and the lowered
  // rate the refusal test leaves would pace the next test's client for 5 s.
  process.env.DEVPLATFORM_PACE_DIR = mkdtempSync(path.join(os.tmpdir(), "pace-"));
  await startNewDeployment();
});

const DEVICE_ROUTE = "GET /devices/{deviceId}";

describe("the provider's settings reach its platform client", () => {
  it(`devplatform:maxRetries ${MAX_RETRIES}: a read failing with 500 is sent ${MAX_RETRIES + 1} times`, async () => {
    const client = await platformClient();
    await client.verifyAccess();
    await emulator.control.setFaults({
      rate: 1,
      kinds: ["500"],
      methods: ["GET"],
      pathIncludes: "/devices/",
    });
    await expect(client.getDevice("1735000000000000001")).rejects.toMatchObject({ status: 500 });
    expect((await emulator.control.counters()).byRoute[DEVICE_ROUTE]).toBe(MAX_RETRIES + 1);
  });

  it("devplatform:rateLimitWait 0: a read refused for the rate limit fails at once, however many retries", async () => {
    const client = await platformClient();
    await client.verifyAccess();
    await emulator.control.setFaults({
      rate: 1,
      kinds: ["429"],
      methods: ["GET"],
      pathIncludes: "/devices/",
    });
    await expect(client.getDevice("1735000000000000001")).rejects.toMatchObject({
      code: "rate_limited",
      message: expect.stringContaining("(rateLimitWait: 0 s)"),
    });
    expect((await emulator.control.counters()).byRoute[DEVICE_ROUTE]).toBe(1);
  });
});

describe("the process's requests in flight", () => {
  it(`are capped at ${CLIENT_CONCURRENCY}: a fleet with concurrency 64 has 64 adds held at once`, async () => {
    expect(CLIENT_CONCURRENCY).toBe(64);
    const devices = serialNumbers(64, "2C").map((sn, i) => ({ sn, name: `held-${i}` }));
    const holdId = await emulator.control.hold("POST /devices", 0);
    const up = upFleet("held-64", devices, undefined, { concurrency: 64 });
    // The hold answers once all 64 wait; before the fix the 33rd never left the client.
    const held = await emulator.control.waitUntilHeld(holdId, 64, { timeoutMs: 120_000 });
    expect(held.held).toBe(64);
    await emulator.control.release(holdId);
    const deployed = await up;
    expect(Object.keys(deployed.outs.deviceIds as Record<string, string>)).toHaveLength(64);
    expect((await emulator.control.counters()).byRoute["POST /devices"]).toBe(64);
  });
});
