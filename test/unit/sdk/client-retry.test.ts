import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RateLimitError, TransportError, clearTokenCache, type DevicePlatformError } from "../../../sdk";
import { FakePlatform, failed, networkError, ok, type FakeReply } from "./support/fake-platform";

const DEVICE_PATH = "/device/openapi/v1/devices/11";
const ADD = "POST /device/openapi/v1/devices";
const SEARCH = "POST /device/openapi/v1/devices/search";
let platform: FakePlatform;

beforeEach(() => {
  clearTokenCache();
  platform = new FakePlatform();
});
afterEach(() => platform.close());

/** A route answering from a script of replies (or errors to throw), then `last` forever. */
function script(steps: (FakeReply | Error)[], last: FakeReply) {
  let i = 0;
  return () => {
    const step = steps[i++] ?? last;
    if (step instanceof Error) throw step;
    return step;
  };
}

const device = ok({ deviceId: "11", sn: "24E1240000000011" });
const retries = () => platform.events.filter((e) => e.retryInMs !== undefined && e.status !== 401);

describe("retries of safe operations", () => {
  it("repeats a GET after 429, 500, 502, 503, 504, a reset and a timeout", async () => {
    // The 429 last: it slows every later request of the client (pacer.ts), which is not this test's.
    const faults = [
      failed(500, "internal_error", "x"),
      failed(502, "bad_gateway", "x"),
      failed(503, "service_unavailable", "x"),
      failed(504, "gateway_timeout", "x"),
      networkError("ECONNRESET"),
      networkError("UND_ERR_HEADERS_TIMEOUT"),
      { ...failed(429, "rate_limited", "slow down"), headers: { "retry-after": "0.001" } },
    ];
    platform.on(`GET ${DEVICE_PATH}`, script(faults, device));
    await expect(platform.client({ maxRetries: 7 }).getDevice("11")).resolves.toMatchObject({
      deviceId: "11",
    });
    expect(platform.count(`GET ${DEVICE_PATH}`)).toBe(8);
    expect(retries().map((e) => [e.status, e.errorCode])).toEqual([
      [500, "server_error"],
      [502, "server_error"],
      [503, "server_error"],
      [504, "server_error"],
      [null, "transport_error"],
      [null, "transport_error"],
      [429, "rate_limited"],
    ]);
    expect(retries().map((e) => e.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("a GET answered 500 twice, then 200, succeeds on the third attempt", async () => {
    platform.on(`GET ${DEVICE_PATH}`, () => device);
    const fault = failed(500, "internal_error", "bug");
    platform.inject(`GET ${DEVICE_PATH}`, fault, fault);
    await expect(platform.client().getDevice("11")).resolves.toMatchObject({ deviceId: "11" });
    expect(platform.count(`GET ${DEVICE_PATH}`)).toBe(3);
    const attempts = platform.events.filter((e) => e.path === DEVICE_PATH);
    expect(attempts.map((e) => [e.attempt, e.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
  });

  it("repeats every safe operation after a 500: token, PUT, DELETE, PATCH, search, RPS", async () => {
    const deviceWrite = ok({ deviceId: "11", sn: "24E1240000000011" });
    const page = ok({ pageSize: 100, pageNumber: 1, total: 0, content: [] });
    const routes: [string, FakeReply][] = [
      ["PUT /device/openapi/v1/devices", deviceWrite],
      [`DELETE ${DEVICE_PATH}`, ok(null)],
      [`PATCH ${DEVICE_PATH}/properties`, ok({ properties: { interval: 5 } })],
      [SEARCH, page],
      ["POST /device/openapi/v1/rps/search", page],
      ["POST /device/openapi/v1/rps/profile", ok("success")],
      ["DELETE /device/openapi/v1/rps/24E1240000000011", ok("success")],
    ];
    const fault = failed(500, "internal_error", "bug");
    for (const [key, reply] of routes) platform.on(key, () => reply).inject(key, fault);
    platform.inject("POST /oauth/token", fault);
    const client = platform.client();
    await client.updateDevice({ deviceId: "11", name: "n" });
    await client.deleteDevice("11");
    await client.updateProperties("11", { interval: 5 });
    await client.searchDevices();
    await client.searchRpsProfiles();
    await client.setRpsProfile({ sn: "24E1240000000011", profileUrl: "https://rps.example/p" });
    await client.deleteRpsProfile("24E1240000000011");
    for (const key of ["POST /oauth/token", ...routes.map(([k]) => k)])
      expect(platform.count(key), key).toBe(2);
  });
  it("honours Retry-After seconds, capped by retryAfterCapMs", async () => {
    const limited = (seconds: string): FakeReply => ({
      ...failed(429, "rate_limited", "slow down"),
      headers: { "retry-after": seconds },
    });
    platform.on(`GET ${DEVICE_PATH}`, script([limited("0.03"), limited("3600")], device));
    const started = Date.now();
    await platform.client({ retry: { retryAfterCapMs: 40, baseDelayMs: 1, maxDelayMs: 1 } }).getDevice("11");
    expect(retries().map((e) => e.retryInMs)).toEqual([30, 40]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(65);
  });

  it("does not repeat a read answered 400, 404 device_not_found, 409 or 501", async () => {
    const answers = [
      failed(400, "invalid_parameter", "bad"),
      failed(404, "device_not_found", "gone"),
      failed(409, "device_already_exists", "dup"),
      failed(501, "not_implemented", "no"),
    ];
    for (const answer of answers) {
      platform.on(`GET ${DEVICE_PATH}`, () => answer);
      const error = (await platform
        .client()
        .getDevice("11")
        .catch((e: unknown) => e)) as DevicePlatformError;
      expect(error.status).toBe(answer.status);
      expect(error.attempts).toBe(1);
    }
    expect(platform.count(`GET ${DEVICE_PATH}`)).toBe(4);
  });

  it("stops after maxRetries and reports the attempts", async () => {
    platform.on(`GET ${DEVICE_PATH}`, () => failed(503, "service_unavailable", "busy", "r-503"));
    const error = (await platform
      .client({ maxRetries: 2, retry: { baseDelayMs: 1, maxDelayMs: 1 } })
      .getDevice("11")
      .catch((e: unknown) => e)) as DevicePlatformError;
    expect(error.status).toBe(503);
    expect(error.message).toBe(
      "GET /device/openapi/v1/devices/11 failed: HTTP 503 service_unavailable: busy (requestId r-503, 3 attempts)",
    );
  });

  it("waits out rate_limited however many times it is refused: maxRetries does not count it", async () => {
    const limited: FakeReply = {
      ...failed(429, "rate_limited", "slow down"),
      headers: { "retry-after": "0.001" },
    };
    platform.on(`GET ${DEVICE_PATH}`, script([limited, limited, limited, limited], device));
    await expect(platform.client({ maxRetries: 0 }).getDevice("11")).resolves.toMatchObject({
      deviceId: "11",
    });
    expect(platform.count(`GET ${DEVICE_PATH}`)).toBe(5);
  });

  it("fails rate_limited once refused for longer than rateLimitWaitMs (0: at the first refusal)", async () => {
    platform.on(`GET ${DEVICE_PATH}`, () => failed(429, "rate_limited", "slow down", "r-429"));
    const error = (await platform
      .client({ maxRetries: 5, rateLimitWaitMs: 0 })
      .getDevice("11")
      .catch((e: unknown) => e)) as DevicePlatformError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toBe(
      "GET /device/openapi/v1/devices/11 failed: HTTP 429 rate_limited: slow down (requestId r-429, 1 attempt). " +
        "refused for the platform's rate limit for 0 s, the longest this client waits one out (rateLimitWait: 0 s)",
    );
    expect(platform.count(`GET ${DEVICE_PATH}`)).toBe(1);
  });

  it("repeats setRpsProfile after a reset: the same sn and URL simply replace the record", async () => {
    platform.on("POST /device/openapi/v1/rps/profile", script([networkError("ECONNRESET")], ok("success")));
    const result = await platform
      .client()
      .setRpsProfile({ sn: "24E1240000000011", profileUrl: "https://rps.example/p" });
    expect(result).toEqual({
      sn: "24E1240000000011",
      profileUrl: "https://rps.example/p",
      result: "success",
    });
    expect(platform.count("POST /device/openapi/v1/rps/profile")).toBe(2);
  });
});

describe("add device: a write that must not happen twice", () => {
  const added = ok({ deviceId: "11", sn: "24E1240000000011" });
  const page = (content: unknown[]) => ok({ pageSize: 100, pageNumber: 1, total: content.length, content });

  it("repeats at once after 429, which means not performed, without looking anything up", async () => {
    platform.on(ADD, script([failed(429, "rate_limited", "x"), failed(429, "rate_limited", "x")], added));
    await expect(platform.client().addDevice({ snDevEUI: "24E1240000000011", name: "a" })).resolves.toEqual({
      deviceId: "11",
      sn: "24E1240000000011",
    });
    expect(platform.count(ADD)).toBe(3);
    expect(platform.count(SEARCH)).toBe(0);
  });

  it("after 503 or 502 (maybe performed) looks the serial number up before sending again", async () => {
    platform.on(
      ADD,
      script([failed(503, "service_unavailable", "x"), failed(502, "bad_gateway", "x")], added),
    );
    platform.on(SEARCH, () => page([]));
    await expect(
      platform.client().addDevice({ snDevEUI: "24E1240000000011", name: "a" }),
    ).resolves.toMatchObject({ deviceId: "11" });
    expect(platform.count(ADD)).toBe(3);
    expect(platform.count(SEARCH)).toBe(2);
  });

  it("repeats at once when the connection was refused: the request never left", async () => {
    platform.on(ADD, script([networkError("ECONNREFUSED"), networkError("UND_ERR_CONNECT_TIMEOUT")], added));
    await expect(
      platform.client().addDevice({ snDevEUI: "24E1240000000011", name: "a" }),
    ).resolves.toMatchObject({
      deviceId: "11",
    });
    expect(platform.count(ADD)).toBe(3);
    expect(platform.count(SEARCH)).toBe(0);
    expect(platform.events.map((e) => Object.keys(e).sort().join(","))).toContain(
      "attempt,durationMs,errorCode,method,path,retryInMs,status",
    );
  });

  it("after a lost response, finds the device by serial number instead of adding it again", async () => {
    platform.on(ADD, script([networkError("ECONNRESET")], added));
    platform.on(SEARCH, () => page([{ deviceId: "11", sn: "24E1240000000011", devEUI: "E1" }]));
    await expect(platform.client().addDevice({ snDevEUI: "24E1240000000011", name: "a" })).resolves.toEqual({
      deviceId: "11",
      sn: "24E1240000000011",
      devEUI: "E1",
    });
    expect(platform.count(ADD)).toBe(1);
    expect(JSON.parse(platform.requests.find((r) => r.path.endsWith("/search"))?.body ?? "")).toMatchObject({
      sn: "24E1240000000011",
    });
  });

  it("after a failure that did not add it, sends again (500, timeout)", async () => {
    platform.on(
      ADD,
      script([failed(500, "internal_error", "x"), networkError("UND_ERR_HEADERS_TIMEOUT")], added),
    );
    platform.on(SEARCH, () => page([{ deviceId: "99", sn: "24E12400000000119" }]));
    await expect(
      platform.client().addDevice({ snDevEUI: "24E1240000000011", name: "a" }),
    ).resolves.toMatchObject({
      deviceId: "11",
    });
    expect(platform.count(ADD)).toBe(3);
    expect(platform.count(SEARCH)).toBe(2);
  });

  it("reads a conflict after an unconfirmed attempt as that attempt's success", async () => {
    let searches = 0;
    platform.on(ADD, script([networkError("ECONNRESET")], failed(409, "device_already_exists", "dup")));
    platform.on(SEARCH, () =>
      searches++ === 0 ? page([]) : page([{ deviceId: "11", sn: "24E1240000000011" }]),
    );
    await expect(
      platform.client().addDevice({ snDevEUI: "24E1240000000011", name: "a" }),
    ).resolves.toMatchObject({
      deviceId: "11",
    });
  });

  it("marks the error when the lookup itself fails", async () => {
    platform.on(ADD, () => {
      throw networkError("ECONNRESET");
    });
    platform.on(SEARCH, () => failed(400, "invalid_parameter", "no"));
    const error = (await platform
      .client()
      .addDevice({ snDevEUI: "24E1240000000011", name: "a" })
      .catch((e: unknown) => e)) as DevicePlatformError;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toContain("the device may have been added; looking it up failed");
  });
});
