import type { FaultConfig, FaultKind } from "./fault-config";
import { seededRandom } from "./seeded-random";

/** The path part of a request URL; `pathIncludes` never matches the query string. */
function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query < 0 ? url : url.slice(0, query);
}

/** What to do to one request. */
export interface FaultDecision {
  kind: FaultKind;
  delayMs: number;
  retryAfterSeconds: number;
}

/** Decides, per platform request, whether and how to fault it. */
export class FaultInjector {
  private config: FaultConfig | undefined;
  private random: () => number = Math.random;
  /** With a seed, each route draws from a sequence of its own (see {@link randomFor}). */
  private readonly routeRandoms = new Map<string, () => number>();
  private remaining = Infinity;
  private passed = 0;
  private dropped: ReadonlySet<string> = new Set();

  /** Replaces the configuration (and restarts the seeded sequence). */
  set(config: FaultConfig): void {
    this.config = config;
    this.random = config.seed === undefined ? Math.random : seededRandom(config.seed);
    this.routeRandoms.clear();
    this.remaining = config.times ?? Infinity;
    this.passed = 0;
    this.dropped = new Set(config.dropProperties);
  }

  /** No faults. */
  clear(): void {
    this.config = undefined;
    this.random = Math.random;
    this.routeRandoms.clear();
    this.remaining = Infinity;
    this.dropped = new Set();
  }

  /** The active configuration, if any. */
  current(): FaultConfig | undefined {
    return this.config;
  }

  /** Whether Update a Device Information must leave `project` unchanged (a platform that ignores it). */
  ignoresProject(): boolean {
    return this.config?.ignoreProject ?? false;
  }

  /** Property ids that PATCH and tasks must not apply. */
  droppedProperties(): ReadonlySet<string> {
    return this.dropped;
  }

  /**
   * The random sequence a request draws from. Seeded, every route (e.g. `POST /tasks`) has its own
   * sequence derived from the seed, so the faults one route sees do not depend on how many requests
   * other routes made before it — a client's concurrent reads cannot reshuffle which of its writes
   * fail, and a seeded run replays.
   */
  private randomFor(route: string | undefined): () => number {
    const seed = this.config?.seed;
    if (seed === undefined || route === undefined) return this.random;
    let random = this.routeRandoms.get(route);
    if (!random) {
      random = seededRandom(seed ^ hashOf(route));
      this.routeRandoms.set(route, random);
    }
    return random;
  }

  /**
   * The fault for a request (`url` as requested, query included; `route` its counter key), or
   * `undefined` to serve it normally.
   */
  decide(method: string, url: string, route?: string): FaultDecision | undefined {
    const config = this.config;
    if (!config || config.kinds.length === 0 || this.remaining <= 0) return undefined;
    if (config.methods && !config.methods.includes(method.toUpperCase())) return undefined;
    if (config.pathIncludes !== undefined && !pathOf(url).includes(config.pathIncludes)) return undefined;
    if (this.passed < config.after) {
      this.passed += 1;
      return undefined;
    }
    const random = this.randomFor(route);
    if (random() >= config.rate) return undefined;
    const kind = config.kinds[Math.floor(random() * config.kinds.length)] ?? config.kinds[0];
    if (kind === undefined) return undefined;
    this.remaining -= 1;
    return { kind, delayMs: config.delayMs, retryAfterSeconds: config.retryAfterSeconds };
  }
}

/** FNV-1a, 32 bits: a route's offset into the seeded sequences. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
