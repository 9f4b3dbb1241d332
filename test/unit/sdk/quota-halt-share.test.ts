/**
 * A halt for a spent daily quota shared between the clients of one job (`quotaHaltShare`): the
 * refused client tells the share once, every client asks it before each attempt (token requests
 * and retries included), and a client the share reports refused sends nothing more, failing with
 * a `QuotaHaltedError` that repeats the other client's platform answer.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  QuotaExhaustedError,
  QuotaHaltedError,
  clearTokenCache,
  type DevicePlatformError,
  type OutgoingRequest,
  type QuotaHaltShare,
  type QuotaRefusal,
} from "../../../sdk";
import { FakePlatform, failed, ok } from "./support/fake-platform";

const DEVICE = "/device/openapi/v1/devices/11";
const QUOTA_MSG = "the daily request quota of 1000 requests for this application is spent";
let platform: FakePlatform;

/** One job's share in memory: what one client is told, every client hears. */
class MemoryShare implements QuotaHaltShare {
  readonly told: QuotaRefusal[] = [];
  readonly asked: OutgoingRequest[] = [];

  refused(refusal: QuotaRefusal): void {
    this.told.push(refusal);
  }

  refusedElsewhere(request: OutgoingRequest): Promise<QuotaRefusal | undefined> {
    this.asked.push(request);
    return Promise.resolve(this.told[0]);
  }
}

beforeEach(() => {
  clearTokenCache();
  platform = new FakePlatform();
  platform.on(`GET ${DEVICE}`, () => ok({ deviceId: "11", sn: "24E1240000000011" }));
});
afterEach(() => platform.close());

async function failure(promise: Promise<unknown>): Promise<DevicePlatformError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(QuotaExhaustedError);
  return error as DevicePlatformError;
}

describe("clients sharing a quota halt", () => {
  it("a refusal one client was given halts the other before its next request, token included", async () => {
    const share = new MemoryShare();
    const first = platform.client({ haltWhenQuotaExhausted: true, quotaHaltShare: share });
    const second = platform.client({ haltWhenQuotaExhausted: true, quotaHaltShare: share });
    platform.inject(`GET ${DEVICE}`, failed(429, "quota_exhausted", QUOTA_MSG, "req-first"));
    await failure(first.getDevice("11"));
    expect(share.told).toHaveLength(1);
    expect(share.told[0]).toMatchObject({ method: "GET", path: DEVICE, status: 429, requestId: "req-first" });

    clearTokenCache(); // the other client is another process: it holds no token yet
    const sent = platform.requests.length;
    const halted = await failure(second.getDevice("11"));
    expect(platform.requests.length).toBe(sent);
    expect(halted).toBeInstanceOf(QuotaHaltedError);
    expect(halted).toMatchObject({ attempts: 0, requestId: "req-first", errMsg: QUOTA_MSG, status: 429 });
    expect(halted.message).toContain(
      `not sent: the platform had refused GET ${DEVICE} for the spent daily quota`,
    );
    // Once halted, the share is not asked again: the halt is for good.
    const asked = share.asked.length;
    await failure(second.getDevice("11"));
    expect(share.asked.length).toBe(asked);
  });

  it("asks before every attempt and again as it leaves the queue; a retry after a refusal elsewhere is not sent", async () => {
    const share = new MemoryShare();
    const client = platform.client({ haltWhenQuotaExhausted: true, quotaHaltShare: share });
    await client.getDevice("11"); // a token, then the read
    expect(share.asked.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET ${DEVICE}`,
      "POST /oauth/token",
      "POST /oauth/token",
      `GET ${DEVICE}`,
    ]);

    // The other client's refusal arrives while this one's attempt gets a 503.
    platform.on(`GET ${DEVICE}`, () => {
      share.told.push({
        method: "PUT",
        path: "/device/openapi/v1/devices",
        status: 429,
        requestId: "req-other",
      });
      return failed(503, "service_unavailable", "busy");
    });
    const asked = share.asked.length;
    const sent = platform.count(`GET ${DEVICE}`);
    const halted = await failure(client.getDevice("11"));
    expect(platform.count(`GET ${DEVICE}`)).toBe(sent + 1);
    expect(share.asked.length).toBe(asked + 3);
    // One attempt was made (the 503); the class says that the halted one was not sent.
    expect(halted).toBeInstanceOf(QuotaHaltedError);
    expect(halted).toMatchObject({ attempts: 1, requestId: "req-other", method: "GET", path: DEVICE });
    expect(share.told).toHaveLength(1); // a refusal learnt from the share is not told back
  });

  it("does not send a request that waited in the client's queue while the refusal came", async () => {
    const share = new MemoryShare();
    const client = platform.client({ haltWhenQuotaExhausted: true, quotaHaltShare: share, concurrency: 1 });
    await client.getDevice("11"); // the token
    platform.on(`GET ${DEVICE}`, () => {
      share.told.push({
        method: "PUT",
        path: "/device/openapi/v1/devices",
        status: 429,
        requestId: "req-other",
      });
      return ok({ deviceId: "11", sn: "24E1240000000011" });
    });
    // The search is checked at once, then waits for the one connection the read holds.
    const read = client.getDevice("11");
    const search = failure(client.searchDevices({}));
    await read;
    const halted = await search;
    expect(platform.count("POST /device/openapi/v1/devices/search")).toBe(0);
    expect(halted).toBeInstanceOf(QuotaHaltedError);
    expect(halted).toMatchObject({ attempts: 0, requestId: "req-other", method: "POST" });
  });

  it("tells the share of a quota refusal only: a 429 rate_limited is retried and told to no one", async () => {
    const share = new MemoryShare();
    const client = platform.client({ haltWhenQuotaExhausted: true, quotaHaltShare: share });
    platform.inject(`GET ${DEVICE}`, failed(429, "rate_limited", "slow down"));
    await client.getDevice("11");
    expect(share.told).toEqual([]);
  });

  it("is neither told nor asked by a client that does not halt on a spent quota", async () => {
    const share = new MemoryShare();
    const client = platform.client({ quotaHaltShare: share });
    platform.inject(`GET ${DEVICE}`, failed(429, "quota_exhausted", QUOTA_MSG));
    await failure(client.getDevice("11"));
    await client.getDevice("11");
    expect(share.told).toEqual([]);
    expect(share.asked).toEqual([]);
  });
});
