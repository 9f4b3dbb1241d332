/**
 * A token grant keeps to no pace: it takes no turn of the client's pace, is not counted among what
 * the platform's limit let through, and a `rate_limited` refusal of it waits its `Retry-After`
 * without slowing the client. The application's rate limit counts its operations; counted, the
 * first grant of each of a machine's processes read a limit of 10 as up to 14 (executor.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  clearTokenCache,
  initialPaceState,
  INITIAL_RATE,
  type PaceState,
  type PaceStore,
} from "../../../sdk";
import { FakePlatform, failed, ok } from "./support/fake-platform";

const DEVICE = "GET /device/openapi/v1/devices/11";
const TOKEN = "POST /oauth/token";
let platform: FakePlatform;

beforeEach(() => {
  clearTokenCache();
  platform = new FakePlatform();
  platform.on(DEVICE, () => ok({ deviceId: "11", sn: "24E1240000000011" }));
});
afterEach(() => platform.close());

/**
 * The pace in memory, as the provider's file keeps it for a machine's processes — engaged: another
 * process met a refusal (before one, a client keeps to no pace at all and changes no store).
 */
function memoryStore(): PaceStore & { state: PaceState } {
  const store = {
    state: { ...initialPaceState(), slowStart: false, rate: INITIAL_RATE, episodeConfirmed: true },
    transact<T>(change: (state: PaceState) => T): T {
      return change(store.state);
    },
    changed: (): PaceState => structuredClone(store.state),
  };
  return store;
}

describe("token grants and the pace", () => {
  it("a grant takes no turn and is not counted as passed; the operation is", async () => {
    const store = memoryStore();
    await platform.client({ paceStore: store }).getDevice("11");
    expect(platform.count(TOKEN)).toBe(1);
    expect(store.state.issued).toBe(1);
    expect(store.state.passedAt).toHaveLength(1);
    // The one pass is the operation's: a climb from it, bounded by what passed.
    expect(store.state.rate).toBeGreaterThan(INITIAL_RATE);
  });

  it("a grant refused rate_limited waits its Retry-After and leaves the pace as it was", async () => {
    const store = memoryStore();
    platform.inject(TOKEN, {
      ...failed(429, "rate_limited", "slow down"),
      headers: { "retry-after": "0.03" },
    });
    await platform.client({ paceStore: store }).getDevice("11");
    expect(platform.count(TOKEN)).toBe(2);
    const refusal = platform.events.find((event) => event.status === 429);
    expect(refusal?.retryInMs).toBe(30);
    expect(store.state.rate).toBeGreaterThanOrEqual(INITIAL_RATE);
    expect(store.state.decreasedAt).toBe(0);
    expect(store.state.issued).toBe(1);
  });
});
