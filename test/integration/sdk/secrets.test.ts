/**
 * The client secret against a real emulator: a client with a wrong secret never borrows the token
 * another client obtained with the right one, and the secret stays redacted however many tokens
 * rotate through the redaction registry.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthenticationError, type DevicePlatformError } from "../../../sdk";
import { redactText } from "../../../sdk/redact";
import { serialNumbers, startHarness, type Harness } from "./support/harness";

const SECRET = "integration-secret-9f2c";
let harness: Harness;
const nextSn = serialNumbers();

beforeAll(async () => {
  harness = await startHarness({ clientSecret: SECRET, tokenTtlSeconds: 60 });
});
afterAll(() => harness.stop());

async function tokenRequests(): Promise<number> {
  return (await harness.emulator.control.counters()).byRoute["POST /oauth/token"] ?? 0;
}

describe("client secrets", () => {
  it("two clients of one application with different secrets: two token requests, the wrong one refused", async () => {
    const { emulator } = harness;
    const right = harness.newClient();
    const { deviceId } = await right.addDevice({ snDevEUI: nextSn(), name: "secret" });
    await emulator.control.resetCounters();

    const wrong = harness.newClient({ clientSecret: "a-wrong-secret" });
    const error = (await wrong.getDevice(deviceId).catch((e: unknown) => e)) as DevicePlatformError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.errCode).toBe("authentication_failed");
    expect(error.message).toMatch(/^POST \/oauth\/token failed: HTTP 401 authentication_failed: /);

    const counters = await emulator.control.counters();
    expect(counters.byRoute["POST /oauth/token"]).toBe(1);
    expect(counters.byRoute["GET /devices/{deviceId}"]).toBeUndefined();
    expect((await right.getDevice(deviceId)).deviceId).toBe(deviceId);
    expect(await tokenRequests()).toBe(1);
  });

  it("after 300 token rotations the client secret is still redacted, and no token leaked", async () => {
    const { emulator, events } = harness;
    const client = harness.newClient();
    const { deviceId } = await client.addDevice({ snDevEUI: nextSn(), name: "rotating" });
    await emulator.control.resetCounters();
    for (let i = 0; i < 300; i += 1) {
      await emulator.control.advanceClock(61); // the access token expires on the server's clock
      await client.getDevice(deviceId);
    }
    expect(await tokenRequests()).toBe(300);
    expect(redactText(`the server echoed ${SECRET}`)).toBe("the server echoed [REDACTED]");
    const issued = await emulator.control.issuedTokens();
    const logged = JSON.stringify(events);
    expect(issued.length).toBeGreaterThanOrEqual(600);
    for (const token of issued) expect(logged).not.toContain(token);
  });
});
