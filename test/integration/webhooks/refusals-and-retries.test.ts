/**
 * What verifyWebhook refuses in real deliveries of the emulator (forged signature, wrong secret,
 * stale and future timestamps, tampered body, missing headers), and the emulator's retries when
 * the receiver fails: the same batch once more per attempt, each attempt freshly signed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import {
  clearTokenCache,
  DevicePlatformClient,
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookInput,
} from "../../../sdk";
import { serialNumbers } from "../sdk/support/harness";
import {
  startRecordingReceiver,
  type ReceivedRequest,
  type RecordingReceiver,
} from "./support/recording-receiver";

const SECRET = "whsec-refusals-test";
let receiver: RecordingReceiver;
let emulator: RunningEmulator;
let client: DevicePlatformClient;
const nextSerial = serialNumbers();

beforeAll(async () => {
  receiver = await startRecordingReceiver();
  emulator = await startEmulator({
    webhookUrl: receiver.url,
    webhookSecret: SECRET,
    webhookRetryDelayMs: 5,
    webhookMaxAttempts: 4,
  });
  clearTokenCache();
  client = new DevicePlatformClient({
    baseUrl: emulator.url,
    clientId: "demo-client",
    clientSecret: "demo-secret",
  });
});

afterEach(async () => {
  await emulator.control.waitForWebhooks();
  receiver.requests.length = 0;
  await emulator.control.reset({ keepTokens: true });
});

afterAll(async () => {
  await client.close();
  await emulator.stop();
  await receiver.close();
});

/** One real WEBHOOK_TEST delivery, as received. */
async function oneDelivery(): Promise<ReceivedRequest> {
  await emulator.control.testWebhook();
  await emulator.control.waitForWebhooks();
  expect(receiver.requests).toHaveLength(1);
  return receiver.requests[0] as ReceivedRequest;
}

function refusal(input: VerifyWebhookInput): WebhookVerificationError {
  try {
    verifyWebhook(input);
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error;
    throw error;
  }
  throw new Error("verifyWebhook accepted the delivery");
}

describe("verifyWebhook refuses what it must, in real deliveries", () => {
  it("accepts the delivery as sent", async () => {
    const { headers, body } = await oneDelivery();
    expect(verifyWebhook({ headers, body, secret: SECRET }).map((e) => e.eventType)).toEqual([
      "WEBHOOK_TEST",
    ]);
  });

  it("a forged signature or another secret: bad_signature, and the secret is not in the message", async () => {
    const { headers, body } = await oneDelivery();
    const signature = String(headers["x-msc-request-signature"]);
    const forged = {
      ...headers,
      "x-msc-request-signature": signature.replace(/^./, (c) => (c === "0" ? "1" : "0")),
    };
    expect(refusal({ headers: forged, body, secret: SECRET }).code).toBe("bad_signature");
    const other = refusal({ headers, body, secret: "another-secret" });
    expect(other.code).toBe("bad_signature");
    expect(other.message).not.toContain("another-secret");
    expect(other.message).not.toContain(signature);
    // A nonce swapped for another one breaks the signature too (it is signed).
    const renonced = { ...headers, "x-msc-request-nonce": "0".repeat(32) };
    expect(refusal({ headers: renonced, body, secret: SECRET }).code).toBe("bad_signature");
  });

  it("a replay after the window (now moved on 61 s) and a re-dated timestamp are refused", async () => {
    const { headers, body } = await oneDelivery();
    const signedAt = Number(headers["x-msc-request-timestamp"]) * 1000;
    expect(verifyWebhook({ headers, body, secret: SECRET, now: signedAt + 60_000 })).toHaveLength(1);
    expect(refusal({ headers, body, secret: SECRET, now: signedAt + 61_000 }).code).toBe(
      "timestamp_out_of_window",
    );
    // Re-dating the delivery to pass the window breaks the signature instead.
    const redated = { ...headers, "x-msc-request-timestamp": String(Math.floor(Date.now() / 1000) + 5) };
    expect(refusal({ headers: redated, body, secret: SECRET }).code).toBe("bad_signature");
  });

  it("a delivery signed by an emulator clock 120 s ahead is refused as from the future", async () => {
    await emulator.control.advanceClock(120);
    const { headers, body } = await oneDelivery();
    expect(refusal({ headers, body, secret: SECRET }).code).toBe("timestamp_out_of_window");
    expect(verifyWebhook({ headers, body, secret: SECRET, toleranceSeconds: 600 })).toHaveLength(1);
  });

  it("a tampered body that is no longer an array of well-formed events: malformed_body", async () => {
    const { headers, body } = await oneDelivery();
    const text = body.toString("utf8");
    const cases = [
      text.slice(0, -1),
      text.slice(1, -1),
      text.replace('"eventType":"WEBHOOK_TEST"', '"eventType":null'),
      text.replace(/"eventCreatedTime":\d+/, '"eventCreatedTime":"yesterday"'),
    ];
    for (const tampered of cases) {
      expect(refusal({ headers, body: tampered, secret: SECRET }).code, tampered).toBe("malformed_body");
    }
    const parsed: unknown = JSON.parse(text);
    expect(refusal({ headers, body: parsed as string, secret: SECRET }).code).toBe("malformed_body");
  });

  it("each missing signing header: missing_headers", async () => {
    const { headers, body } = await oneDelivery();
    for (const name of [
      "x-msc-request-signature",
      "x-msc-request-timestamp",
      "x-msc-request-nonce",
      "x-msc-webhook-uuid",
    ]) {
      const { [name]: _dropped, ...rest } = headers;
      const error = refusal({ headers: rest, body, secret: SECRET });
      expect(error.code, name).toBe("missing_headers");
      expect(error.message).toContain(name);
    }
  });
});

describe("retries of the emulator when the receiver fails", () => {
  it("fails twice, then succeeds: the same batch once more per attempt, 3 attempts in the control API", async () => {
    receiver.answerWith(500, 503);
    const { deviceId } = await client.addDevice({ snDevEUI: nextSerial(), name: "retried" });
    await client.createConfigTasks({
      type: "TSL",
      deviceIds: [deviceId],
      config: { properties: { reportInterval: 800 } },
    });
    const { deliveries } = await emulator.control.waitForWebhooks();
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]?.eventTypes).toEqual(["DEVICE_DATA", "TASK_DATA"]);
    expect(deliveries[0]?.state).toBe("delivered");
    expect(deliveries[0]?.attempts.map((a) => [a.attempt, a.statusCode, a.ok])).toEqual([
      [1, 500, false],
      [2, 503, false],
      [3, 200, true],
    ]);
    expect(receiver.requests).toHaveLength(3);
    const bodies = new Set(receiver.requests.map((r) => r.body.toString("utf8")));
    expect(bodies.size).toBe(1);
    const nonces = new Set(receiver.requests.map((r) => r.headers["x-msc-request-nonce"]));
    expect(nonces.size).toBe(3);
    const eventIds = receiver.requests.map((r) => verifyWebhook({ ...r, secret: SECRET })[0]?.eventId);
    expect(eventIds).toEqual([
      deliveries[0]?.eventIds[0],
      deliveries[0]?.eventIds[0],
      deliveries[0]?.eventIds[0],
    ]);
  });

  it("gives up after the bounded number of attempts, then delivers what comes next", async () => {
    receiver.answerWith(500, 500, 500, 500);
    await emulator.control.testWebhook();
    const first = await emulator.control.waitForWebhooks();
    expect(first.deliveries.map((d) => [d.state, d.attempts.length])).toEqual([["failed", 4]]);
    await emulator.control.testWebhook();
    const second = await emulator.control.waitForWebhooks();
    expect(second.deliveries.map((d) => [d.state, d.attempts.length])).toEqual([
      ["failed", 4],
      ["delivered", 1],
    ]);
    expect(receiver.requests).toHaveLength(5);
  });
});

describe("reset while a delivery waits for its retry", () => {
  it("forgets it: the next event is delivered at once, and the old one is not sent again", async () => {
    const patient = await startEmulator({
      webhookUrl: receiver.url,
      webhookSecret: SECRET,
      webhookRetryDelayMs: 3_600_000,
    });
    try {
      receiver.answerWith(500);
      await patient.control.testWebhook();
      // A bounded poll for the first attempt; the retry itself is an hour away.
      let view = await patient.control.webhookDeliveries();
      for (let i = 0; i < 500 && view.deliveries[0]?.state !== "retrying"; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        view = await patient.control.webhookDeliveries();
      }
      expect(view.deliveries.map((d) => [d.state, d.attempts.length])).toEqual([["retrying", 1]]);
      await patient.control.reset();
      expect((await patient.control.webhookDeliveries()).deliveries).toEqual([]);
      const eventId = await patient.control.testWebhook();
      const { deliveries } = await patient.control.waitForWebhooks();
      expect(deliveries.map((d) => [d.state, d.eventIds])).toEqual([["delivered", [eventId]]]);
      expect(receiver.requests).toHaveLength(2);
    } finally {
      await patient.stop();
    }
  });
});

describe("a receiver that is not there", () => {
  it("records the connection error of each attempt and gives up", async () => {
    const gone = await startRecordingReceiver();
    await gone.close();
    const lonely = await startEmulator({
      webhookUrl: gone.url,
      webhookSecret: SECRET,
      webhookRetryDelayMs: 1,
      webhookMaxAttempts: 2,
    });
    try {
      await lonely.control.testWebhook();
      const { deliveries } = await lonely.control.waitForWebhooks();
      expect(deliveries.map((d) => d.state)).toEqual(["failed"]);
      expect(deliveries[0]?.attempts.map((a) => [a.ok, a.statusCode])).toEqual([
        [false, undefined],
        [false, undefined],
      ]);
      expect(deliveries[0]?.attempts.every((a) => /ECONNREFUSED/.test(a.error ?? ""))).toBe(true);
    } finally {
      await lonely.stop();
    }
  });

  it("without webhook settings, the test call is refused and no delivery is listed", async () => {
    const plain = await startEmulator();
    try {
      await expect(plain.control.testWebhook()).rejects.toMatchObject({ status: 400 });
      expect(await plain.control.webhookDeliveries()).toEqual({
        enabled: false,
        webhookUuid: null,
        deliveries: [],
      });
    } finally {
      await plain.stop();
    }
  });
});
