/**
 * No refusal, no cost (issue #48): while the platform refuses nothing, the pace does no work per
 * request — no change of the machine's pace file (a lock directory made and removed, a read, a
 * rename: before, three of them per request, which cost a 10,000-device fleet's `up` 2.5 × its time)
 * and no timer wait (a slow start from 2 requests a second spaced the first seconds' requests).
 * Counted, not timed: the pace store's calls through the real client against the emulator, and the
 * pacer's sleeps with 64 requests in flight through a real file store.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdaptivePacer, type PaceState } from "../../../sdk";
import { MachinePaceStore, machinePaceStore } from "../../../provider/runtime/pace-store";
import { startHarness, serialNumbers, type Harness } from "../sdk/support/harness";

/** The machine's pace file store, counting what each kind of call costs. */
class CountingStore extends MachinePaceStore {
  readonly calls = { transact: 0, peek: 0, changed: 0 };
  override transact<T>(change: (state: PaceState) => T): T {
    this.calls.transact += 1;
    return super.transact(change);
  }
  override peek(): PaceState {
    this.calls.peek += 1;
    return super.peek();
  }
  override changed(): PaceState | undefined {
    this.calls.changed += 1;
    return super.changed();
  }
}

let root: string;
let harness: Harness;
const nextSn = serialNumbers();

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "pace-cost-"));
  process.env.DEVPLATFORM_PACE_DIR = path.join(root, "pace");
  harness = await startHarness({}, { concurrency: 64 });
});
afterAll(async () => {
  await harness.stop();
  delete process.env.DEVPLATFORM_PACE_DIR;
  fs.rmSync(root, { recursive: true, force: true });
});

describe("pacing while the platform refuses nothing", () => {
  it("400 adds, 64 at once, through the client: no change of the pace file, no look at its turns; at most one stat per 100 ms", async () => {
    const store = new CountingStore(machinePaceStore(harness.emulator.url, "demo-client").directory);
    const client = harness.newClient({ concurrency: 64, paceStore: store });
    harness.events.length = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 400 }, (_, i) => client.addDevice({ snDevEUI: nextSn(), name: `free-${i}` })),
    );
    const elapsedMs = performance.now() - started;
    expect(harness.events.filter((e) => e.status === 429)).toHaveLength(0);
    expect(harness.events.filter((e) => e.method === "POST" && e.path.endsWith("/devices"))).toHaveLength(
      400,
    );
    expect([store.calls.transact, store.calls.peek]).toEqual([0, 0]);
    // A look for another process's refusal is a stat, made by time, not by request.
    expect(store.calls.changed).toBeGreaterThanOrEqual(1);
    expect(store.calls.changed).toBeLessThanOrEqual(1 + Math.ceil(elapsedMs / 100));
  });

  it("2,000 requests, 64 in flight, through the pacer and the file store: 0 sleeps, 0 changes of the pace", async () => {
    let slept = 0;
    const clock = { now: () => 1_000, sleep: async () => void (slept += 1) };
    const store = new CountingStore(path.join(root, "pace", "direct"));
    const pacer = new AdaptivePacer({ clock, store });
    let left = 2_000;
    const worker = async () => {
      while (left > 0) {
        left -= 1;
        const ticket = await pacer.acquire();
        await Promise.resolve(); // the request's round trip
        pacer.release();
        pacer.passed(ticket);
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    expect([slept, store.calls.transact, store.calls.peek, store.calls.changed]).toEqual([0, 0, 0, 1]);
  });
});
