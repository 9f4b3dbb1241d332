/**
 * Counts the HTTP requests an export makes, from the SDK's per-attempt events, so that the summary
 * can say what reading the fleet cost (and a test can compare it with the platform's own counters).
 */
import type { RequestEvent } from "../../sdk";

/** What a request was for. */
export type RequestKind = "token" | "device search" | "RPS listing" | "configuration" | "TSL model" | "other";

const PLURALS: Record<RequestKind, string> = {
  token: "tokens",
  "device search": "device searches",
  "RPS listing": "RPS listings",
  configuration: "configurations",
  "TSL model": "TSL models",
  other: "others",
};

function kindOf(event: RequestEvent): RequestKind {
  const path = event.path;
  if (path.endsWith("/oauth/token")) return "token";
  if (path.endsWith("/devices/search")) return "device search";
  if (path.endsWith("/rps/search")) return "RPS listing";
  if (path.endsWith("/config")) return "configuration";
  if (path.endsWith("/thing-specification")) return "TSL model";
  return "other";
}

/** A running count of requests by kind; `listener` goes to the client's `onEvent`. */
export class RequestTally {
  readonly #counts = new Map<RequestKind, number>();
  #total = 0;
  #retried = 0;

  /** The client's `onEvent`. */
  readonly listener = (event: RequestEvent): void => {
    this.#total += 1;
    if (event.retryInMs !== undefined) this.#retried += 1;
    const kind = kindOf(event);
    this.#counts.set(kind, (this.#counts.get(kind) ?? 0) + 1);
  };

  /** Every HTTP attempt, retries included. */
  get total(): number {
    return this.#total;
  }

  /** Attempts that failed and were tried again. */
  get retried(): number {
    return this.#retried;
  }

  /** Attempts of one kind. */
  count(kind: RequestKind): number {
    return this.#counts.get(kind) ?? 0;
  }

  /** `1 token, 3 device searches, …` in a fixed order, kinds with no request left out. */
  describe(): string {
    return (Object.keys(PLURALS) as RequestKind[])
      .filter((kind) => this.count(kind) > 0)
      .map(
        (kind) =>
          `${this.count(kind).toLocaleString("en-US")} ${this.count(kind) === 1 ? kind : PLURALS[kind]}`,
      )
      .join(", ");
  }
}
