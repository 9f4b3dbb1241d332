/**
 * The dispatcher keeps a bounded history of deliveries for the control API (1,000 in the emulator;
 * 3 here, so that the bound is reached with four real POSTs to a real receiver).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Clock } from "../../../emulator/clock";
import { DELIVERY_HISTORY, WebhookDispatcher } from "../../../emulator/webhooks/delivery-queue";
import { webhookTestEvent } from "../../../emulator/webhooks/webhook-events";
import { startRecordingReceiver, type RecordingReceiver } from "./support/recording-receiver";

let receiver: RecordingReceiver;

beforeAll(async () => {
  receiver = await startRecordingReceiver();
});

afterAll(async () => {
  await receiver.close();
});

describe("delivery history", () => {
  it("keeps the most recent deliveries only, and the emulator keeps 1,000", async () => {
    expect(DELIVERY_HISTORY).toBe(1_000);
    const settings = { url: receiver.url, secret: "s", maxAttempts: 1, retryDelayMs: 1, timeoutMs: 10_000 };
    const dispatcher = new WebhookDispatcher(settings, new Clock(), 3);
    try {
      const eventIds: string[] = [];
      for (let i = 0; i < 4; i += 1) {
        const event = webhookTestEvent(Date.now());
        eventIds.push(event.eventId);
        dispatcher.enqueue(event);
        await dispatcher.settled();
      }
      expect(receiver.requests).toHaveLength(4);
      expect(dispatcher.views().map((d) => [d.state, d.eventIds])).toEqual(
        eventIds.slice(1).map((id) => ["delivered", [id]]),
      );
    } finally {
      await dispatcher.close();
    }
  });
});
