/**
 * Which devices a DeviceConfig marks `unknown` after a task call whose answer was lost: exactly the
 * devices of that call, as the SDK names them — not "the first 500 without a task" — so that an
 * earlier answer that left a device out can neither make that device unknown nor make a device of
 * the lost call look definitely not sent (which the next `up` would send again without looking).
 * The real SDK client runs on a scripted platform (undici MockAgent).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clearTokenCache, type DevicePlatformClient } from "../../../sdk";
import { executeWrites } from "../../../provider/device-config/apply";
import type { PlannedWrite } from "../../../provider/device-config/plan";
import { FakePlatform, failed, networkError, ok } from "../sdk/support/fake-platform";

const TASKS = "POST /device/openapi/v1/tasks";
let platform: FakePlatform;
let client: DevicePlatformClient;

vi.mock("../../../provider/platform-access/platform-client", () => ({
  platformClient: () => Promise.resolve(client),
}));

const ids = Array.from({ length: 1_010 }, (_, i) => String(1735000000000000000n + BigInt(i)));
const chunk1 = ids.slice(0, 500);
const chunk2 = ids.slice(500, 1_000);
const chunk3 = ids.slice(1_000);
/** The device the first answer leaves out. */
const leftOut = chunk1[17] as string;

beforeEach(() => {
  clearTokenCache();
  platform = new FakePlatform();
  client = platform.client();
});
afterEach(() => platform.close());

/** Chunk 1 answered without `leftOut`; chunk 2 gets `second` (a failure, or an unreadable answer); chunk 3 would be answered. */
function platformFailingChunk2(
  second: () => never | ReturnType<typeof failed> | ReturnType<typeof ok>,
): void {
  let calls = 0;
  platform.on(TASKS, (request) => {
    calls += 1;
    if (calls === 2) return second();
    const body = JSON.parse(request.body) as { deviceIds: string[] };
    const answered = body.deviceIds.filter((deviceId) => deviceId !== leftOut);
    return ok({
      deviceTaskRelations: answered.map((deviceId, i) => ({ deviceId, taskId: `9${calls}${i}` })),
    });
  });
}

function write(type: PlannedWrite["type"]): PlannedWrite {
  const values = type === "TSL" ? { reportInterval: 900 } : { ecoMode: true };
  return { deviceIds: ids, type, values, purpose: "apply", version: "v1" };
}

function marked(outcome: Awaited<ReturnType<typeof executeWrites>>) {
  const unknown = outcome.notApplied.filter((n) => n.unknown).map((n) => n.deviceId);
  const notSent = outcome.notApplied.filter((n) => !n.unknown).map((n) => n.deviceId);
  return { unknown, notSent };
}

describe("a task call whose answer was lost, after an answer that left a device out", () => {
  it.each(["TSL", "PROFILE"] as const)(
    "%s: the lost call's 500 devices are unknown; the left-out device and the unsent chunk are not",
    async (type) => {
      platformFailingChunk2(() => {
        throw networkError("ECONNRESET");
      });
      const outcome = await executeWrites([write(type)], false);
      expect(platform.count(TASKS)).toBe(2);
      expect(Object.keys(outcome.taskIds)).toHaveLength(499);
      const { unknown, notSent } = marked(outcome);
      expect(unknown).toEqual(chunk2);
      expect(notSent).toEqual([leftOut, ...chunk3]);
    },
  );

  it.each(["TSL", "PROFILE"] as const)(
    "%s: a call answered Success whose data cannot be read (performed, answer unknown) makes its 500 devices unknown",
    async (type) => {
      platformFailingChunk2(() => ok({ deviceTaskRelations: "not a list" }));
      const outcome = await executeWrites([write(type)], false);
      expect(platform.count(TASKS)).toBe(2);
      const { unknown, notSent } = marked(outcome);
      expect(unknown).toEqual(chunk2);
      expect(notSent).toEqual([leftOut, ...chunk3]);
    },
  );

  it("a call refused for sure (HTTP 400) leaves no device unknown", async () => {
    platformFailingChunk2(() => failed(400, "invalid_parameter", "no"));
    const outcome = await executeWrites([write("TSL")], false);
    expect(platform.count(TASKS)).toBe(2);
    const { unknown, notSent } = marked(outcome);
    expect(unknown).toEqual([]);
    expect(notSent).toEqual([leftOut, ...chunk2, ...chunk3]);
  });
});
