/**
 * The signing header values verifyWebhook checks the signature over: exactly as received, HTTP's
 * optional whitespace (SP, HTAB) around them aside. Any other whitespace — U+00A0, U+2003, U+FEFF,
 * or the ASCII controls `String.prototype.trim` also strips — refuses the delivery instead of being
 * trimmed, so one verified nonce is one string, the one a replay guard keys on.
 */
import { describe, expect, it } from "vitest";
import {
  computeWebhookSignature,
  verifyWebhook,
  verifyWebhookDelivery,
  WebhookVerificationError,
  type VerifyWebhookInput,
  type WebhookHeaders,
} from "../../../sdk";

const SECRET = "my-webhook-secret";
const TIMESTAMP = "1742871724";
const NONCE = "nonce-123";
// Computed independently: printf '1742871724nonce-123' | openssl dgst -sha256 -hmac 'my-webhook-secret'
const VECTOR = "1d5da61e0d70939c848217cc3996403d6faf60a1499075e1f2bb1bcc7b9dd16c";
const SIGNED_AT_MS = 1_742_871_724_000;
const UUID = "3f1c7e02-5d1a-4c59-9b1e-0d7c2a8e4b11";

const HEADERS = {
  "x-msc-request-signature": VECTOR,
  "x-msc-request-timestamp": TIMESTAMP,
  "x-msc-request-nonce": NONCE,
  "x-msc-webhook-uuid": UUID,
};

const BODY =
  '[{"eventId":"e1","eventCreatedTime":1742871724,"eventVersion":"1.0","eventType":"WEBHOOK_TEST","data":"x"}]';

function input(headers: WebhookHeaders): VerifyWebhookInput {
  return { headers, body: BODY, secret: SECRET, now: SIGNED_AT_MS + 1_000 };
}

/** The refusal of `headers`, checked to be a WebhookVerificationError; fails the test if accepted. */
function refusal(headers: WebhookHeaders): WebhookVerificationError {
  try {
    verifyWebhook(input(headers));
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error;
    throw error;
  }
  throw new Error(`accepted: ${JSON.stringify(headers)}`);
}

/** Spaces `String.prototype.trim` removes and HTTP does not: none may be removed before the HMAC. */
const NOT_HTTP_WHITESPACE = {
  "U+00A0 (no-break space)": "\u00a0",
  "U+2003 (em space)": "\u2003",
  "U+FEFF (byte order mark)": "\ufeff",
  "U+3000 (ideographic space)": "\u3000",
  "U+2028 (line separator)": "\u2028",
  "CR LF": "\r\n",
  VT: "\v",
  FF: "\f",
} as const;

describe("signing header values are verified exactly as received", () => {
  for (const [name, space] of Object.entries(NOT_HTTP_WHITESPACE)) {
    it(`refuses the nonce with ${name} at either end: bad_signature, not trimmed`, () => {
      for (const nonce of [NONCE + space, space + NONCE]) {
        const error = refusal({ ...HEADERS, "x-msc-request-nonce": nonce });
        expect(error.code).toBe("bad_signature");
        expect(error.httpStatus).toBe(401);
      }
    });

    it(`refuses the timestamp and the signature with ${name} after them: bad_signature`, () => {
      const timestamp = TIMESTAMP + space;
      expect(refusal({ ...HEADERS, "x-msc-request-timestamp": timestamp }).code).toBe("bad_signature");
      expect(refusal({ ...HEADERS, "x-msc-request-signature": VECTOR + space }).code).toBe("bad_signature");
    });
  }

  it("refuses a nonce that is not visible ASCII even when signed over it with the secret", () => {
    // Refused by rule, not by the HMAC: Node reads header bytes as latin1 while the HMAC is over
    // UTF-8, so outside ASCII one string does not stand for one sequence of bytes on the wire.
    for (const nonce of ["nonce-123\u00a0", "nonce\u00a0123", "nonce 123", "nonce\t123", "nonce-é"]) {
      const headers = {
        ...HEADERS,
        "x-msc-request-nonce": nonce,
        "x-msc-request-signature": computeWebhookSignature(SECRET, TIMESTAMP, nonce),
      };
      expect(refusal(headers).code, JSON.stringify(nonce)).toBe("bad_signature");
    }
  });

  it("names the character and where it is, never the value or the secret", () => {
    const error = refusal({ ...HEADERS, "x-msc-request-nonce": NONCE + "\u00a0" });
    expect(error.message).toContain("x-msc-request-nonce holds U+00A0 at 9");
    expect(error.message).not.toContain(NONCE);
    expect(error.message).not.toContain(SECRET);
    expect(refusal({ ...HEADERS, "x-msc-request-nonce": "\ud83d\ude00" + NONCE }).message).toContain(
      "U+1F600 at 0",
    );
  });

  it("refuses U+00A0 however the headers come: an array of one, a fetch Headers", () => {
    expect(refusal({ ...HEADERS, "x-msc-request-nonce": [NONCE + "\u00a0"] }).code).toBe("bad_signature");
    expect(refusal(new Headers({ ...HEADERS, "x-msc-request-nonce": NONCE + "\u00a0" })).code).toBe(
      "bad_signature",
    );
  });

  it("refuses a webhook uuid that is only U+00A0 or holds it: missing_headers (it is not signed)", () => {
    expect(refusal({ ...HEADERS, "x-msc-webhook-uuid": "\u00a0" }).code).toBe("missing_headers");
    expect(refusal({ ...HEADERS, "x-msc-webhook-uuid": UUID + "\u2003" }).code).toBe("missing_headers");
  });

  it("removes HTTP's optional whitespace (SP, HTAB) around a value: the same value, accepted", () => {
    for (const pad of [" ", "\t", " \t ", "\t\t"]) {
      const padded = {
        "x-msc-request-signature": pad + VECTOR + pad,
        "x-msc-request-timestamp": pad + TIMESTAMP,
        "x-msc-request-nonce": NONCE + pad,
        "x-msc-webhook-uuid": pad + UUID,
      };
      const delivery = verifyWebhookDelivery(input(padded));
      expect(delivery.nonce).toBe(NONCE);
      expect(delivery.timestamp).toBe(TIMESTAMP);
      expect(delivery.events.map((e) => e.eventId)).toEqual(["e1"]);
    }
  });

  it("refuses a value that is only HTTP whitespace as missing", () => {
    expect(refusal({ ...HEADERS, "x-msc-request-nonce": " \t " }).code).toBe("missing_headers");
  });
});

describe("verifyWebhookDelivery", () => {
  it("returns the events with the timestamp and nonce the signature was checked over", () => {
    const delivery = verifyWebhookDelivery(input(HEADERS));
    expect(delivery).toEqual({ events: verifyWebhook(input(HEADERS)), timestamp: TIMESTAMP, nonce: NONCE });
  });

  it("refuses what verifyWebhook refuses, with the same code", () => {
    const forged = { ...HEADERS, "x-msc-request-signature": "0".repeat(64) };
    let refused: unknown;
    try {
      verifyWebhookDelivery(input(forged));
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(WebhookVerificationError);
    expect((refused as WebhookVerificationError).code).toBe("bad_signature");
  });
});
