/**
 * No refusal, no cost (issue #48): while the platform refuses nothing, the pace does no work per
 * request but one `stat` of the machine's pace file (to see another process's refusal at once) —
 * no change of the file (a lock directory made and removed, a read, a rename: before, three of them
 * per request, which cost 3,000 adds sharing a pace 13 s of their 20 s), and, once the slow start
 * kept in memory has climbed to FREE_START_RATE, no timer wait either (before, every start of a
 * bunch was spaced by one). A later command on the machine climbs no more: it starts where the
 * last one got with no refusal (the SDK's proven-rate.ts; a fresh process climbed 2 → 64 a second
 * in about 3.8 s of timer waits, 4,200 sleeps for 2,000 adds). Counted, not timed: the pace store's calls through the real client
 * against the emulator, and the pacer's sleeps with 64 requests in flight through a real file store.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdaptivePacer, FREE_START_RATE, PROVEN_RATE_VALID_MS, type PaceState } from "../../../sdk";
import { fakeClock } from "../../unit/sdk/support/fake-pacer-clock";
import { MachinePaceStore, machinePaceStore } from "../../../provider/platform-access/pace-store";
import { startHarness, serialNumbers, type Harness } from "../sdk/support/harness";

/** The machine's pace file store, counting what each kind of call costs. */
class CountingStore extends MachinePaceStore {
  readonly calls = { transact: 0, peek: 0, changed: 0, remember: 0 };
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
  override remember(rate: number): void {
    this.calls.remember += 1;
    super.remember(rate);
  }
}

/** `requests` requests through `pacer`, `inFlight` at a time, each passing at once; the sleeps they cost. */
async function paced(
  pacer: AdaptivePacer,
  clock: ReturnType<typeof fakeClock>,
  requests: number,
  inFlight = 64,
) {
  const before = clock.slept.length;
  let left = requests;
  const worker = async () => {
    while (left > 0) {
      left -= 1;
      const ticket = await pacer.acquire();
      await Promise.resolve(); // the request's round trip
      pacer.release();
      pacer.passed(ticket);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return clock.slept.length - before;
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
  it("400 adds, 64 at once, through the client: no change of the pace file, no look at its turns; one stat per start", async () => {
    const store = new CountingStore(machinePaceStore("demo-client").directory);
    const client = harness.newClient({ concurrency: 64, paceStore: store });
    harness.events.length = 0;
    await Promise.all(
      Array.from({ length: 400 }, (_, i) => client.addDevice({ snDevEUI: nextSn(), name: `free-${i}` })),
    );
    expect(harness.events.filter((e) => e.status === 429)).toHaveLength(0);
    expect(harness.events.filter((e) => e.method === "POST" && e.path.endsWith("/devices"))).toHaveLength(
      400,
    );
    expect([store.calls.transact, store.calls.peek]).toEqual([0, 0]);
    // A start looks for another process's refusal first (a stat; more than one when it waited).
    expect(store.calls.changed).toBeGreaterThanOrEqual(400);
  });

  it("through the pacer and the file store, 64 in flight: past the slow start 2,000 requests cost 0 sleeps, 0 changes, 0 peeks, 2,000 stats", async () => {
    const clock = fakeClock();
    const store = new CountingStore(path.join(root, "pace", "direct"));
    const pacer = new AdaptivePacer({ clock, store });
    const run = (requests: number) => paced(pacer, clock, requests);
    await run(500); // the slow start, spaced by the clock
    expect(FREE_START_RATE).toBe(64);
    expect(pacer.currentRate()).toBeGreaterThanOrEqual(64);
    const sleptInSlowStart = clock.slept.length;
    Object.assign(store.calls, { transact: 0, peek: 0, changed: 0, remember: 0 });
    await run(2_000);
    expect([clock.slept.length - sleptInSlowStart, store.calls.transact, store.calls.peek]).toEqual([
      0, 0, 0,
    ]);
    expect(store.calls.changed).toBe(2_000);
    // The slow start's sleeps are its first seconds' (2, 4, 8, … a second until 64), not per request.
    expect(sleptInSlowStart).toBeLessThan(500);
    console.log(`slow start: ${sleptInSlowStart} sleeps for 500 requests`);
  });
});

describe("a later command starts where an earlier one on the machine got with no refusal", () => {
  /** A pacer of a new process on the machine: a store of its own on the one pace directory. */
  const processOn = (directory: string, clock: ReturnType<typeof fakeClock>) => {
    const store = new CountingStore(directory, () => clock.now());
    return { store, pacer: new AdaptivePacer({ clock, store }) };
  };

  it("the first command climbs and remembers once; the next spaces nothing from its first request", async () => {
    const clock = fakeClock();
    const directory = path.join(root, "pace", "later");
    const first = processOn(directory, clock);
    const climb = await paced(first.pacer, clock, 2_000);
    const next = processOn(directory, clock);
    const sleeps = await paced(next.pacer, clock, 500);
    console.log(
      `first command: ${climb} sleeps, ${first.store.calls.remember} writes of the rate; next: ${sleeps} sleeps`,
    );
    expect(climb).toBeGreaterThan(0);
    // Written when 64 passed in a second, not per request (every later doubling came within its second).
    expect(first.store.calls.remember).toBe(1);
    expect([sleeps, next.store.calls.transact, next.store.calls.peek]).toEqual([0, 0, 0]);
  });

  it(`older than ${PROVEN_RATE_VALID_MS / 60_000} minutes, the rate is not recalled: the slow start climbs again`, async () => {
    const clock = fakeClock();
    const directory = path.join(root, "pace", "old");
    await paced(processOn(directory, clock).pacer, clock, 2_000);
    clock.at += PROVEN_RATE_VALID_MS + 1;
    expect(processOn(directory, clock).store.recall()).toBeUndefined();
    expect(await paced(processOn(directory, clock).pacer, clock, 500)).toBeGreaterThan(0);
  });

  it("a refusal on the machine wins: forgotten by the refused client, and not recalled beside a recent decrease", async () => {
    const clock = fakeClock();
    const directory = path.join(root, "pace", "refused");
    await paced(processOn(directory, clock).pacer, clock, 2_000);
    // Another process is refused: its decrease forgets the rate remembered.
    const refused = processOn(directory, clock);
    refused.pacer.refused(await refused.pacer.acquire(), 1_000);
    refused.pacer.release();
    expect(fs.existsSync(path.join(directory, "proven.json"))).toBe(false);
    // A process that had not yet seen the refusal remembers a rate after it: the decrease in the
    // pace file, within the memory's time, still wins — after the pace's idle reset too.
    processOn(directory, clock).store.remember(500);
    clock.at += 6_000;
    expect(processOn(directory, clock).store.recall()).toBeUndefined();
    expect(await paced(processOn(directory, clock).pacer, clock, 500)).toBeGreaterThan(0);
  });
});
