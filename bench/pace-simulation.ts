/**
 * The pacer against a platform's rate limit in simulated time: K clients (stacks that know nothing
 * of each other) of M requests each, every client with its own AdaptivePacer and C requests in
 * flight, against the emulator's limiter (N requests a second per application, fixed one-second
 * windows, `Retry-After` in whole seconds rounded up). No process, no socket, no wall clock: the
 * figures are the pacer's own, free of the machine's load and of the engine's cost, and the same at
 * every run. The bench's platform-limit table measures the whole thing on the real CLI; this says
 * how much of its wall time the pacing itself costs.
 *
 * `npx tsx bench/pace-simulation.ts [KxM@R ...] [--latency MS] [--concurrency C] [--stagger MS]
 * [--phase MS] [--one-machine] [--jitter F] [--seed N]`
 */
import { AdaptivePacer, type PacerClock } from "../sdk/pacer";
import { initialPaceState, type PaceStore } from "../sdk/pace-state";
import { RateLimiter } from "../emulator/rate-limiter";
import { seededRandom } from "../emulator/faults/seeded-random";

/** One simulated run. */
export interface PaceScenario {
  readonly clients: number;
  readonly requestsPerClient: number;
  /** The platform's limit, requests a second for the application. */
  readonly rate: number;
  /** Requests of one client in flight at once. */
  readonly concurrency: number;
  /** A request's round trip, milliseconds (it reaches the platform half-way). */
  readonly latencyMs: number;
  /** Milliseconds between the clients' starts (0: all at once). */
  readonly staggerMs?: number;
  /**
   * Milliseconds into the platform's first one-second window at which the first client starts
   * (0: at its start): real starts fall anywhere in a window.
   */
  readonly phaseMs?: number;
  /**
   * The clients run on one machine and keep one pace (the provider's pace-store.ts, here in
   * memory); otherwise each keeps its own, as on machines of their own.
   */
  readonly oneMachine?: boolean;
  /**
   * Each half of a round trip varies by up to this fraction of itself, uniformly (0: none), drawn
   * from {@link seed}: a busy machine's answers come in bunches, not evenly spaced.
   */
  readonly jitter?: number;
  /** The seed of the jitter's draws (the same seed, the same run). */
  readonly seed?: number;
}

/** What a simulated run gave. */
export interface PaceOutcome {
  /** Simulated seconds until every request passed. */
  readonly seconds: number;
  /** seconds ÷ (K·M ÷ R): 1 is the limit's own floor. */
  readonly ratio: number;
  readonly sent: number;
  readonly refused: number;
  /** The client that finished last, and first, in simulated seconds (fairness). */
  readonly slowestClient: number;
  readonly fastestClient: number;
  /**
   * The longest one request went on being refused, from its first refusal to its pass, in
   * simulated seconds: what the client's `rateLimitWait` (600 s by default) bounds, beyond which
   * its `up` fails.
   */
  readonly longestRefused: number;
}

interface Timer {
  readonly at: number;
  readonly seq: number;
  readonly resolve: () => void;
}

/** Earlier first; of two at one time, the one set first. */
function before(a: Timer, b: Timer): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

/** A clock whose time moves only when every pending promise has settled (a discrete-event loop). */
class SimulatedClock implements PacerClock {
  private time = 0;
  /** The pacers' look offsets, drawn from the scenario's seed: a scenario plays out alike every run. */
  readonly random: () => number;
  /** A binary heap of the pending sleeps. */
  private readonly heap: Timer[] = [];
  private seq = 0;

  constructor(seed: number) {
    this.random = seededRandom(seed);
  }

  now(): number {
    return this.time;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.push({ at: this.time + Math.max(0, ms), seq: this.seq++, resolve }));
  }

  /** Runs until nothing is pending and `done()` holds. */
  async run(done: () => boolean): Promise<void> {
    for (;;) {
      // Every promise chain the last timer started settles before the next macrotask.
      await new Promise((resolve) => setImmediate(resolve));
      const timer = this.pop();
      if (timer === undefined) {
        if (done()) return;
        throw new Error("simulation stalled: no timer pending and requests left");
      }
      this.time = timer.at;
      timer.resolve();
    }
  }

  private push(timer: Timer): void {
    this.heap.push(timer);
    for (let i = this.heap.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!before(this.at(i), this.at(parent))) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private pop(): Timer | undefined {
    const top = this.heap[0];
    const last = this.heap.pop();
    if (this.heap.length === 0 || last === undefined) return top;
    this.heap[0] = last;
    for (let i = 0; ;) {
      let least = i;
      for (const child of [2 * i + 1, 2 * i + 2]) {
        if (child < this.heap.length && before(this.at(child), this.at(least))) least = child;
      }
      if (least === i) break;
      this.swap(i, least);
      i = least;
    }
    return top;
  }

  private at(index: number): Timer {
    const timer = this.heap[index];
    if (timer === undefined) throw new Error(`no timer at ${index}`);
    return timer;
  }

  private swap(a: number, b: number): void {
    const held = this.at(a);
    this.heap[a] = this.at(b);
    this.heap[b] = held;
  }
}

/** Runs one scenario to its end in simulated time. */
export async function simulatePace(scenario: PaceScenario): Promise<PaceOutcome> {
  // Its own stream (seed + 1): the latencies' stream stays as it was before offsets were seeded.
  const clock = new SimulatedClock((scenario.seed ?? 1) + 1);
  const limiter = new RateLimiter(scenario.rate);
  let sent = 0;
  let refused = 0;
  let longestRefusedMs = 0;
  let left = scenario.clients * scenario.requestsPerClient;
  const finished: number[] = [];
  const shared = initialPaceState();
  let version = 0;
  /** One process's view of the machine's pace, as pace-store.ts gives it: changes, peeks, looks. */
  const machineStore = (): PaceStore => {
    let seen = 0;
    return {
      transact: (change) => {
        version += 1;
        return change(shared);
      },
      // Read only (the pacer only waits by it): no copy per look.
      peek: () => shared,
      changed: () => {
        if (seen === version) return undefined;
        seen = version;
        return structuredClone(shared);
      },
    };
  };

  const random = seededRandom(scenario.seed ?? 1);
  const half = (): number => (scenario.latencyMs / 2) * (1 + (scenario.jitter ?? 0) * (2 * random() - 1));

  const client = async (index: number): Promise<void> => {
    await clock.sleep((scenario.phaseMs ?? 0) + index * (scenario.staggerMs ?? 0));
    const pacer = new AdaptivePacer({ clock, store: scenario.oneMachine ? machineStore() : undefined });
    let queue = scenario.requestsPerClient;
    const worker = async (): Promise<void> => {
      while (queue > 0) {
        queue -= 1;
        let firstRefusedAt: number | undefined;
        for (;;) {
          const ticket = await pacer.acquire();
          sent += 1;
          await clock.sleep(half());
          let retryAfterMs: number | undefined;
          try {
            limiter.admit("app", clock.now());
          } catch (error) {
            const header = (error as { headers?: Record<string, string> }).headers?.["retry-after"];
            retryAfterMs = Number(header ?? "1") * 1000;
          }
          await clock.sleep(half());
          pacer.release();
          if (retryAfterMs === undefined) {
            pacer.passed(ticket);
            if (firstRefusedAt !== undefined)
              longestRefusedMs = Math.max(longestRefusedMs, clock.now() - firstRefusedAt);
            left -= 1;
            break;
          }
          refused += 1;
          firstRefusedAt ??= clock.now();
          // As the client's executor does: the refused request waits, then takes its turn again.
          await clock.sleep(pacer.refused(ticket, retryAfterMs));
        }
      }
    };
    await Promise.all(Array.from({ length: scenario.concurrency }, worker));
    finished.push(clock.now() / 1000);
  };

  const clients = Array.from({ length: scenario.clients }, (_, index) => client(index));
  await clock.run(() => left === 0);
  await Promise.all(clients);
  const seconds = clock.now() / 1000;
  const floor = (scenario.clients * scenario.requestsPerClient) / scenario.rate;
  return {
    seconds,
    ratio: seconds / floor,
    sent,
    refused,
    slowestClient: Math.max(...finished),
    fastestClient: Math.min(...finished),
    longestRefused: longestRefusedMs / 1000,
  };
}

function parseRow(row: string): { clients: number; requestsPerClient: number; rate: number } {
  const match = /^(\d+)x(\d+)@(\d+(?:\.\d+)?)$/.exec(row);
  if (!match) throw new Error(`a row is KxM@R (say 8x250@20), not ${JSON.stringify(row)}`);
  return { clients: Number(match[1]), requestsPerClient: Number(match[2]), rate: Number(match[3]) };
}

async function main(argv: string[]): Promise<void> {
  const option = (name: string, fallback: number): number => {
    const at = argv.indexOf(name);
    return at === -1 ? fallback : Number(argv.splice(at, 2)[1]);
  };
  const latencyMs = option("--latency", 20);
  const concurrency = option("--concurrency", 16);
  const staggerMs = option("--stagger", 0);
  const phaseMs = option("--phase", 0);
  const jitter = option("--jitter", 0);
  const seed = option("--seed", 1);
  const oneMachine = argv.includes("--one-machine");
  if (oneMachine) argv.splice(argv.indexOf("--one-machine"), 1);
  const rows = argv.length > 0 ? argv : ["1x2000@20", "8x250@20", "20x500@50"];
  console.log(
    `| K × M at R | simulated s | ÷ (K·M÷R) | refused ÷ sent | clients finished (s) | longest refused (s) |`,
  );
  console.log(`|---|---|---|---|---|---|`);
  for (const row of rows) {
    const outcome = await simulatePace({
      ...parseRow(row),
      concurrency,
      latencyMs,
      staggerMs,
      phaseMs,
      oneMachine,
      jitter,
      seed,
    });
    const share = ((100 * outcome.refused) / outcome.sent).toFixed(1);
    console.log(
      `| ${row} | ${outcome.seconds.toFixed(1)} | ${outcome.ratio.toFixed(3)} | ${share}% (${outcome.refused} of ${outcome.sent}) | ` +
        `${outcome.fastestClient.toFixed(0)}–${outcome.slowestClient.toFixed(0)} | ${outcome.longestRefused.toFixed(1)} |`,
    );
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
