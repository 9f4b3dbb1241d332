import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  RateLimitError,
  ServerError,
  TransportError,
  clearTokenCache,
  type DevicePlatformError,
} from "../../../sdk";
import { FakePlatform, failed, networkError, ok, type FakeReply } from "./support/fake-platform";

const DEVICE_PATH = "/device/openapi/v1/devices/11";
const ADD = "POST /device/openapi/v1/devices";
const SEARCH = "POST /device/openapi/v1/devices/search";
const TASKS = "POST /device/openapi/v1/tasks";
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
  it("repeats a GET after 429, 502, 503, 504, a reset and a timeout", async () => {
    const faults = [
      failed(429, "rate_limited", "slow down"),
      failed(502, "bad_gateway", "x"),
      failed(503, "unavailable", "x"),
      failed(504, "gateway_timeout", "x"),
      networkError("ECONNRESET"),
      networkError("UND_ERR_HEADERS_TIMEOUT"),
    ];
    platform.on(`GET ${DEVICE_PATH}`, script(faults, device));
    await expect(platform.client({ maxRetries: 6 }).getDevice("11")).resolves.toMatchObject({
      deviceId: "11",
    });
    expect(platform.count(`GET ${DEVICE_PATH}`)).toBe(7);
    expect(retries().map((e) => [e.status, e.errorCode])).toEqual([
      [429, "rate_limited"],
      [502, "server_error"],
      [503, "server_error"],
      [504, "server_error"],
      [null, "transport_error"],
      [null, "transport_error"],
    ]);
    expect(retries().map((e) => e.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
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

  it("does not repeat a 500 or a 4xx of a read", async () => {
    platform.on(`GET ${DEVICE_PATH}`, () => failed(500, "internal_error", "bug"));
    await expect(platform.client().getDevice("11")).rejects.toBeInstanceOf(ServerError);
    expect(platform.count(`GET ${DEVICE_PATH}`)).toBe(1);
  });

  it("stops after maxRetries and reports the attempts", async () => {
    platform.on(`GET ${DEVICE_PATH}`, () => failed(429, "rate_limited", "slow down", "r-429"));
    const error = (await platform
      .client({ maxRetries: 2 })
      .getDevice("11")
      .catch((e: unknown) => e)) as DevicePlatformError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toBe(
      "GET /device/openapi/v1/devices/11 failed: HTTP 429 rate_limited: slow down (requestId r-429, 3 attempts)",
    );
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

  it("repeats at once after 429 and 503, which the platform documents as not performed", async () => {
    platform.on(ADD, script([failed(429, "rate_limited", "x"), failed(503, "unavailable", "x")], added));
    await expect(platform.client().addDevice({ snDevEUI: "24E1240000000011", name: "a" })).resolves.toEqual({
      deviceId: "11",
      sn: "24E1240000000011",
    });
    expect(platform.count(ADD)).toBe(3);
    expect(platform.count(SEARCH)).toBe(0);
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

describe("createConfigTasks", () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => String(9007199254740993n + BigInt(i)));
  const taskRoute = () =>
    platform.on(TASKS, (request) => {
      const body = JSON.parse(request.body) as { deviceIds: string[] };
      return ok({
        deviceTaskRelations: body.deviceIds.map((deviceId, i) => ({ deviceId, taskId: `7${i}` })),
      });
    });

  it("splits 1,200 devices into 3 calls of at most 500 and returns every relation", async () => {
    taskRoute();
    const relations = await platform
      .client()
      .createConfigTasks({ type: "TSL", deviceIds: ids(1200), config: { properties: { interval: 60 } } });
    expect(relations).toHaveLength(1200);
    expect(relations[1199]?.deviceId).toBe(ids(1200)[1199]);
    const sizes = platform.requests
      .filter((r) => r.path.endsWith("/tasks"))
      .map((r) => (JSON.parse(r.body) as { deviceIds: unknown[] }).deviceIds.length);
    expect(sizes).toEqual([500, 500, 200]);
  });

  it("never repeats a task request whose outcome is unknown", async () => {
    platform.on(TASKS, () => {
      throw networkError("ECONNRESET");
    });
    const error = (await platform
      .client()
      .createConfigTasks({ type: "PROFILE", deviceIds: ["1"], config: { values: [{ key: "k", value: 1 }] } })
      .catch((e: unknown) => e)) as DevicePlatformError;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toMatch(
      /connection reset \(ECONNRESET\) \(1 attempt\)\. the tasks may have been created/,
    );
    expect(platform.count(TASKS)).toBe(1);
  });

  it("repeats after 503 (not performed) and names earlier chunks when a later one fails", async () => {
    let calls = 0;
    platform.on(TASKS, (request) => {
      calls += 1;
      if (calls === 2) return failed(503, "unavailable", "x");
      if (calls === 4) return failed(400, "invalid_parameter", "bad config");
      const body = JSON.parse(request.body) as { deviceIds: string[] };
      return ok({ deviceTaskRelations: body.deviceIds.map((deviceId) => ({ deviceId, taskId: "1" })) });
    });
    const error = (await platform
      .client()
      .createConfigTasks({ type: "TSL", deviceIds: ids(1001), config: { properties: {} } })
      .catch((e: unknown) => e)) as DevicePlatformError;
    expect(error.code).toBe("invalid_request");
    expect(error.message).toMatch(/tasks for the first 1000 of 1001 devices had been created$/);
    expect(platform.count(TASKS)).toBe(4);
  });
});
