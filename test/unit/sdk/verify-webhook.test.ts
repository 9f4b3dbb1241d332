import { describe, expect, it } from "vitest";
import {
  computeWebhookSignature,
  isDeviceDataEvent,
  isTaskDataEvent,
  verifyWebhook,
  webhookSignatureMatches,
  WebhookVerificationError,
  type VerifyWebhookInput,
} from "../../../sdk";

const SECRET = "my-webhook-secret";
// Computed independently: printf '1742871724nonce-123' | openssl dgst -sha256 -hmac 'my-webhook-secret'
const VECTOR = "1d5da61e0d70939c848217cc3996403d6faf60a1499075e1f2bb1bcc7b9dd16c";
const SIGNED_AT_MS = 1_742_871_724_000;

const HEADERS = {
  "x-msc-request-signature": VECTOR,
  "x-msc-request-timestamp": "1742871724",
  "x-msc-request-nonce": "nonce-123",
  "x-msc-webhook-uuid": "3f1c7e02-5d1a-4c59-9b1e-0d7c2a8e4b11",
};

const TASK_BODY =
  '[{"eventId":"e1","eventCreatedTime":1742871724,"eventVersion":"1.0","eventType":"TASK_DATA",' +
  '"data":{"info":{"taskId":1904371063669395457,"deviceId":1904371063669395459,"status":"SUCCESS",' +
  '"errCode":null,"subcommand":[{"key":"reportInterval","status":"SUCCESS","value":1200}]},"type":"CONFIG"}}]';

function input(over: Partial<VerifyWebhookInput> = {}): VerifyWebhookInput {
  return { headers: HEADERS, body: TASK_BODY, secret: SECRET, now: SIGNED_AT_MS + 1_000, ...over };
}

function codeOf(over: Partial<VerifyWebhookInput>): string {
  try {
    verifyWebhook(input(over));
  } catch (error) {
    if (error instanceof WebhookVerificationError) {
      expect(error.message).not.toContain(SECRET);
      expect(error.httpStatus).toBe(401);
      return error.code;
    }
    throw error;
  }
  return "accepted";
}

describe("webhook signature", () => {
  it("matches an independently computed HMAC-SHA256 of timestamp + nonce", () => {
    expect(computeWebhookSignature(SECRET, "1742871724", "nonce-123")).toBe(VECTOR);
    expect(webhookSignatureMatches(SECRET, "1742871724", "nonce-123", VECTOR.toUpperCase())).toBe(true);
    expect(webhookSignatureMatches(SECRET, "1742871724", "nonce-123", VECTOR.slice(1))).toBe(false);
    expect(webhookSignatureMatches(SECRET, "1742871725", "nonce-123", VECTOR)).toBe(false);
  });
});

describe("verifyWebhook", () => {
  it("returns typed events with ids exact above 2^53 (string, Buffer or fetch Headers)", () => {
    for (const events of [
      verifyWebhook(input()),
      verifyWebhook(input({ body: Buffer.from(TASK_BODY) })),
      verifyWebhook(input({ headers: new Headers(HEADERS) })),
    ]) {
      const [event] = events;
      if (!event || !isTaskDataEvent(event)) throw new Error("expected TASK_DATA");
      expect(event.data.info).toEqual({
        taskId: "1904371063669395457",
        deviceId: "1904371063669395459",
        status: "SUCCESS",
        errCode: undefined,
        subcommand: [{ key: "reportInterval", status: "SUCCESS", value: 1200 }],
      });
    }
  });

  it("finds headers in any case and refuses a repeated one", () => {
    const upper = Object.fromEntries(Object.entries(HEADERS).map(([k, v]) => [k.toUpperCase(), v]));
    expect(codeOf({ headers: upper })).toBe("accepted");
    expect(codeOf({ headers: { ...HEADERS, "x-msc-request-nonce": ["a", "b"] } })).toBe("missing_headers");
    expect(codeOf({ headers: { ...HEADERS, "x-msc-request-nonce": ["nonce-123"] } })).toBe("accepted");
    expect(codeOf({ headers: { ...HEADERS, "x-msc-webhook-uuid": " " } })).toBe("missing_headers");
  });

  it("accepts timestamps up to the tolerance either way, and refuses beyond it", () => {
    expect(codeOf({ now: SIGNED_AT_MS + 60_000 })).toBe("accepted");
    expect(codeOf({ now: SIGNED_AT_MS + 60_001 })).toBe("timestamp_out_of_window");
    expect(codeOf({ now: SIGNED_AT_MS - 60_000 })).toBe("accepted");
    expect(codeOf({ now: SIGNED_AT_MS - 60_001 })).toBe("timestamp_out_of_window");
    expect(codeOf({ now: new Date(SIGNED_AT_MS + 300_000), toleranceSeconds: 300 })).toBe("accepted");
    expect(codeOf({ now: SIGNED_AT_MS + 11_000, toleranceSeconds: 10 })).toBe("timestamp_out_of_window");
  });

  it("refuses a timestamp that is not seconds, even when signed", () => {
    const ms = "1742871724000";
    const headers = {
      ...HEADERS,
      "x-msc-request-timestamp": ms,
      "x-msc-request-signature": computeWebhookSignature(SECRET, ms, "nonce-123"),
    };
    expect(codeOf({ headers })).toBe("timestamp_out_of_window");
  });

  it("checks the signature before the timestamp: a forgery is bad_signature whatever its date", () => {
    expect(codeOf({ secret: "wrong", now: SIGNED_AT_MS + 3_600_000 })).toBe("bad_signature");
  });

  it("refuses bodies that are not the raw text of an array of events", () => {
    expect(codeOf({ body: "{}" })).toBe("malformed_body");
    expect(codeOf({ body: "[" })).toBe("malformed_body");
    expect(codeOf({ body: Buffer.from([0x5b, 0xff, 0x5d]) })).toBe("malformed_body");
    expect(codeOf({ body: JSON.parse(TASK_BODY) as string })).toBe("malformed_body");
    expect(codeOf({ body: TASK_BODY.replace('"deviceId":1904371063669395459', '"deviceId":"abc"') })).toBe(
      "malformed_body",
    );
    expect(codeOf({ body: TASK_BODY.replace('"eventId":"e1",', "") })).toBe("malformed_body");
    expect(codeOf({ body: "[]" })).toBe("accepted");
  });

  it("names the broken field in the message", () => {
    const body = TASK_BODY.replace('"deviceId":1904371063669395459', '"deviceId":"abc"');
    expect(() => verifyWebhook(input({ body }))).toThrow(/event 0 \(TASK_DATA\): data\.info\.deviceId/);
  });

  it("reads the reference's spellings: eventID, eventCreatedTime as a string, unknown types kept", () => {
    const body = JSON.stringify([
      {
        eventID: "6167cb40",
        eventCreatedTime: "1742872448",
        eventVersion: "1.0",
        eventType: "DEVICE_DATA",
        data: {
          deviceProfile: {
            deviceId: "1904371063669395457",
            sn: "6707E04610160001",
            name: "Demo",
            model: "AM319",
          },
          type: "PROPERTY",
          tslID: "",
          payload: { temperature: 21.5 },
        },
      },
      { eventID: "x", eventCreatedTime: 1, eventVersion: "1.0", eventType: "NEW_KIND", data: { a: 1 } },
    ]);
    const [device, other] = verifyWebhook(input({ body }));
    if (!device || !isDeviceDataEvent(device)) throw new Error("expected DEVICE_DATA");
    expect(device.eventId).toBe("6167cb40");
    expect(device.eventCreatedTime).toBe(1742872448);
    expect(device.data.deviceProfile.deviceId).toBe("1904371063669395457");
    expect(device.data.payload).toEqual({ temperature: 21.5 });
    expect(other).toMatchObject({ eventType: "NEW_KIND", data: { a: 1 } });
  });

  it("cannot tell a well-formed body swapped under valid headers: the reference signs timestamp + nonce only", () => {
    // Documented in docs/guides/platform-client.md: body integrity rests on TLS. This test fails if the scheme changes.
    const swapped = TASK_BODY.replace('"value":1200', '"value":60');
    const [event] = verifyWebhook(input({ body: swapped }));
    expect(event && isTaskDataEvent(event) && event.data.info.subcommand[0]?.value).toBe(60);
  });

  it("refuses an empty secret as a programming error", () => {
    expect(() => verifyWebhook(input({ secret: "" }))).toThrow(TypeError);
  });
});
