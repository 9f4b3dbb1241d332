/**
 * A spent daily quota (429 `quota_exhausted`) is classified by status and errCode into its own
 * error, never retried, and carries what the platform said; a client with `haltWhenQuotaExhausted`
 * sends nothing more after the first such refusal. A 429 `rate_limited` stays retried.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  QuotaExhaustedError,
  RateLimitError,
  ServerError,
  clearTokenCache,
  errorFromResponse,
  type DevicePlatformError,
} from "../../../sdk";
import { decideRetry } from "../../../sdk/retry";
import { FakePlatform, failed, ok } from "./support/fake-platform";

const DEVICE = "/device/openapi/v1/devices/11";
const ADD = "POST /device/openapi/v1/devices";
const QUOTA_MSG = "the daily request quota of 1000 requests for this application is spent";
let platform: FakePlatform;

beforeEach(() => {
  clearTokenCache();
  platform = new FakePlatform();
});
afterEach(() => platform.close());

async function failure(promise: Promise<unknown>): Promise<DevicePlatformError> {
  try {
    await promise;
  } catch (error) {
    return error as DevicePlatformError;
  }
  throw new Error("expected a failure");
}

const envelope = (errCode: string) => ({
  status: "Failed",
  requestId: "req-9",
  errCode,
  errMsg: "m",
  data: null,
});

describe("classification of a spent daily quota", () => {
  it.each([
    ["HTTP 429 quota_exhausted", 429, "quota_exhausted", QuotaExhaustedError, "quota_exhausted"],
    ["HTTP 200 Failed quota_exhausted", 200, "quota_exhausted", QuotaExhaustedError, "quota_exhausted"],
    ["HTTP 429 rate_limited", 429, "rate_limited", RateLimitError, "rate_limited"],
    ["HTTP 429 another code", 429, "quota_exhausted_soon", RateLimitError, "rate_limited"],
    [
      "HTTP 500 quota_exhausted (status and code disagree)",
      500,
      "quota_exhausted",
      ServerError,
      "server_error",
    ],
  ])("%s", (_label, status, errCode, Class, code) => {
    const error = errorFromResponse({
      method: "GET",
      path: DEVICE,
      attempts: 1,
      status,
      body: envelope(errCode),
    });
    expect(error).toBeInstanceOf(Class);
    expect(error.code).toBe(code);
  });

  it("is never retried, whatever the operation's repeatability", () => {
    const outcome = { kind: "response", status: 429, quotaExhausted: true } as const;
    expect(decideRetry(outcome, "safe")).toBe("stop");
    expect(decideRetry(outcome, "unsafe")).toBe("stop");
    expect(decideRetry({ kind: "response", status: 429 }, "safe")).toBe("retry");
  });
});

describe("a client meeting a spent quota", () => {
  it("sends a GET once (no retry) and throws QuotaExhaustedError with the platform's words", async () => {
    platform.on(`GET ${DEVICE}`, () => failed(429, "quota_exhausted", QUOTA_MSG, "req-quota-1"));
    const error = await failure(platform.client({ maxRetries: 5 }).getDevice("11"));
    expect(platform.count(`GET ${DEVICE}`)).toBe(1);
    expect(error).toBeInstanceOf(QuotaExhaustedError);
    expect(error).toMatchObject({
      code: "quota_exhausted",
      status: 429,
      errCode: "quota_exhausted",
      errMsg: QUOTA_MSG,
      requestId: "req-quota-1",
      attempts: 1,
      outcomeUnknown: false,
    });
    expect(error.message).toContain("HTTP 429 quota_exhausted");
    expect(error.message).toContain("requestId req-quota-1");
    expect(error.message).toContain("daily request quota is spent; not retried");
  });

  it("sends an add once: not performed, so no lookup and no outcome doubt", async () => {
    platform.on(ADD, () => failed(429, "quota_exhausted", QUOTA_MSG));
    const error = await failure(platform.client().addDevice({ snDevEUI: "24E1240000000011", name: "a" }));
    expect(error).toBeInstanceOf(QuotaExhaustedError);
    expect(platform.count(ADD)).toBe(1);
    expect(platform.count("POST /device/openapi/v1/devices/search")).toBe(0);
    expect(error.outcomeUnknown).toBe(false);
  });

  it("still retries a 429 rate_limited", async () => {
    platform.on(`GET ${DEVICE}`, () => ok({ deviceId: "11", sn: "24E1240000000011" }));
    platform.inject(`GET ${DEVICE}`, failed(429, "rate_limited", "slow down"));
    await platform.client().getDevice("11");
    expect(platform.count(`GET ${DEVICE}`)).toBe(2);
  });

  it("with haltWhenQuotaExhausted, sends nothing more after the first refusal, repeating the platform's words", async () => {
    platform.on(`GET ${DEVICE}`, () => failed(429, "quota_exhausted", QUOTA_MSG, "req-first"));
    platform.on(ADD, () => ok({ deviceId: "12" }));
    const client = platform.client({ haltWhenQuotaExhausted: true });
    await failure(client.getDevice("11"));
    const before = platform.requests.length;
    const later = await failure(client.addDevice({ snDevEUI: "24E1240000000012", name: "b" }));
    expect(platform.requests.length).toBe(before);
    expect(later).toBeInstanceOf(QuotaExhaustedError);
    expect(later).toMatchObject({ attempts: 0, requestId: "req-first", errMsg: QUOTA_MSG, method: "POST" });
    expect(later.message).toContain(
      `not sent: the platform had refused GET ${DEVICE} for the spent daily quota`,
    );
  });

  it("without it (the default), every operation is sent and refused on its own", async () => {
    platform.on(`GET ${DEVICE}`, () => failed(429, "quota_exhausted", QUOTA_MSG));
    const client = platform.client();
    await failure(client.getDevice("11"));
    await failure(client.getDevice("11"));
    expect(platform.count(`GET ${DEVICE}`)).toBe(2);
  });
});
