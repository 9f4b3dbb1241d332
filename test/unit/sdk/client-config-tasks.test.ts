/**
 * Create Configuration Tasks on a scripted platform: chunks of at most 500 devices, a chunk whose
 * outcome is unknown never re-sent, and what the caller hears of each chunk.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ServerError,
  clearTokenCache,
  type DevicePlatformError,
  type DeviceTaskRelation,
  type TaskChunkFailure,
} from "../../../sdk";
import { FakePlatform, failed, networkError, ok, type FakeReply } from "./support/fake-platform";

const TASKS = "POST /device/openapi/v1/tasks";
let platform: FakePlatform;

beforeEach(() => {
  clearTokenCache();
  platform = new FakePlatform();
});
afterEach(() => platform.close());

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

  it("reports each chunk to onChunkCreated as it is created", async () => {
    taskRoute();
    const chunks: DeviceTaskRelation[][] = [];
    const sentBefore: number[] = [];
    const relations = await platform.client().createConfigTasks(
      { type: "TSL", deviceIds: ids(1200), config: { properties: { interval: 60 } } },
      {
        onChunkCreated: (created) => {
          chunks.push(created);
          sentBefore.push(platform.count(TASKS));
        },
      },
    );
    expect(chunks.map((c) => c.length)).toEqual([500, 500, 200]);
    expect(sentBefore).toEqual([1, 2, 3]); // called before the next chunk is sent
    expect(chunks.flat()).toEqual(relations);
  });

  it("when a later chunk fails, onChunkCreated has heard of exactly the devices that got tasks", async () => {
    let calls = 0;
    platform.on(TASKS, (request) => {
      calls += 1;
      if (calls === 3) return failed(404, "device_not_found", "device 9007199254741993 not found");
      const body = JSON.parse(request.body) as { deviceIds: string[] };
      return ok({
        deviceTaskRelations: body.deviceIds.map((deviceId, i) => ({ deviceId, taskId: `${calls}${i}` })),
      });
    });
    const recorded: DeviceTaskRelation[] = [];
    const error = (await platform
      .client()
      .createConfigTasks(
        { type: "TSL", deviceIds: ids(1200), config: { properties: {} } },
        { onChunkCreated: (created) => recorded.push(...created) },
      )
      .catch((e: unknown) => e)) as DevicePlatformError;
    expect(error.code).toBe("not_found");
    expect(error.message).toMatch(/tasks for the first 1000 of 1200 devices had been created$/);
    expect(recorded.map((r) => r.deviceId)).toEqual(ids(1000));
  });

  it("an exception of onChunkCreated stops further chunks and is passed on as is", async () => {
    taskRoute();
    const own = new Error("could not record");
    const error = await platform
      .client()
      .createConfigTasks(
        { type: "TSL", deviceIds: ids(1200), config: { properties: {} } },
        {
          onChunkCreated: () => {
            throw own;
          },
        },
      )
      .catch((e: unknown) => e);
    expect(error).toBe(own);
    expect(platform.count(TASKS)).toBe(1);
  });

  it("tells onChunkFailed exactly the devices of the call whose answer was lost, and sends no later chunk", async () => {
    let calls = 0;
    platform.on(TASKS, (request) => {
      calls += 1;
      if (calls === 2) throw networkError("ECONNRESET");
      const body = JSON.parse(request.body) as { deviceIds: string[] };
      // The first answer leaves one device out: order alone cannot tell the lost call's devices.
      return ok({
        deviceTaskRelations: body.deviceIds.slice(1).map((deviceId, i) => ({ deviceId, taskId: `7${i}` })),
      });
    });
    const failures: TaskChunkFailure[] = [];
    const error = (await platform
      .client()
      .createConfigTasks(
        { type: "TSL", deviceIds: ids(1200), config: { properties: {} } },
        { onChunkFailed: (failure) => failures.push(failure) },
      )
      .catch((e: unknown) => e)) as DevicePlatformError;
    expect(platform.count(TASKS)).toBe(2);
    expect(failures).toHaveLength(1);
    expect(failures[0]?.deviceIds).toEqual(ids(1000).slice(500));
    expect(failures[0]?.error).toBe(error);
    expect(error.outcomeUnknown).toBe(true);
  });

  it("tells onChunkFailed of a call refused for sure, with outcomeUnknown false", async () => {
    platform.on(TASKS, () => failed(400, "invalid_parameter", "no"));
    const failures: TaskChunkFailure[] = [];
    await platform
      .client()
      .createConfigTasks(
        { type: "PROFILE", deviceIds: ids(3), config: { values: [{ key: "a", value: 1 }] } },
        { onChunkFailed: (failure) => failures.push(failure) },
      )
      .catch(() => undefined);
    expect(failures.map((f) => [f.deviceIds, f.error.outcomeUnknown])).toEqual([[ids(3), false]]);
  });

  it("never repeats a task request whose outcome is unknown: reset, 500, 502, 503, 504", async () => {
    const outcomes: (FakeReply | Error)[] = [
      networkError("ECONNRESET"),
      failed(500, "internal_error", "x"),
      failed(502, "bad_gateway", "x"),
      failed(503, "service_unavailable", "x"),
      failed(504, "gateway_timeout", "x"),
    ];
    platform.on(TASKS, () => ok({ deviceTaskRelations: [{ deviceId: "1", taskId: "2" }] }));
    for (const outcome of outcomes) {
      platform.requests.length = 0;
      platform.inject(TASKS, outcome);
      const error = (await platform
        .client()
        .createConfigTasks({
          type: "PROFILE",
          deviceIds: ["1"],
          config: { values: [{ key: "k", value: 1 }] },
        })
        .catch((e: unknown) => e)) as DevicePlatformError;
      expect(error.outcomeUnknown).toBe(true);
      expect(error.attempts).toBe(1);
      expect(error.message).toMatch(
        /1 attempt\)\. tasks for this device may have been created, so the request was not repeated \(that could create them twice\); check the configuration of the devices concerned/,
      );
      expect(platform.count(TASKS)).toBe(1);
    }
  });

  it("names the devices of the chunk whose outcome is unknown, and what earlier chunks created", async () => {
    let calls = 0;
    platform.on(TASKS, (request) => {
      calls += 1;
      if (calls === 2) return failed(500, "internal_error", "x");
      const body = JSON.parse(request.body) as { deviceIds: string[] };
      return ok({ deviceTaskRelations: body.deviceIds.map((deviceId) => ({ deviceId, taskId: "1" })) });
    });
    const error = (await platform
      .client()
      .createConfigTasks({ type: "TSL", deviceIds: ids(1200), config: { properties: {} } })
      .catch((e: unknown) => e)) as DevicePlatformError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toMatch(/tasks for devices 501–1000 of 1200 may have been created/);
    expect(error.message).toMatch(/tasks for the first 500 of 1200 devices had been created$/);
    expect(platform.count(TASKS)).toBe(2);
  });

  it("repeats after 429 (not performed) and names earlier chunks when a later one fails", async () => {
    let calls = 0;
    platform.on(TASKS, (request) => {
      calls += 1;
      if (calls === 2) return failed(429, "rate_limited", "x");
      if (calls === 4) return failed(400, "invalid_parameter", "bad config");
      const body = JSON.parse(request.body) as { deviceIds: string[] };
      return ok({ deviceTaskRelations: body.deviceIds.map((deviceId) => ({ deviceId, taskId: "1" })) });
    });
    const error = (await platform
      .client()
      .createConfigTasks({ type: "TSL", deviceIds: ids(1001), config: { properties: {} } })
      .catch((e: unknown) => e)) as DevicePlatformError;
    expect(error.code).toBe("invalid_request");
    expect(error.outcomeUnknown).toBe(false);
    expect(error.message).toMatch(/tasks for the first 1000 of 1001 devices had been created$/);
    expect(platform.count(TASKS)).toBe(4);
  });
});
