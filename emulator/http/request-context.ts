import type { FastifyRequest } from "fastify";

/** What the emulator's hooks learn about a request before its handler runs. */
export interface RequestState {
  /** Set by the `reset-after` fault: perform the operation, then drop the connection unanswered. */
  resetAfter: boolean;
  /**
   * Set by the `empty-after` fault: perform the operation, then answer HTTP 200 with an empty body
   * (a proxy or gateway that lost the platform's answer on the way).
   */
  emptyAfter: boolean;
  /** The application of the access token, once authenticated. */
  applicationId: string | undefined;
  /** Set while a hold holds the request: told once it has been answered (or its connection dropped). */
  onAnswered: (() => void) | undefined;
}

// A WeakMap rather than a fastify decoration: no global type augmentation leaks into other code.
const states = new WeakMap<FastifyRequest, RequestState>();

/** The mutable per-request state, created on first use. */
export function requestState(request: FastifyRequest): RequestState {
  let state = states.get(request);
  if (!state) {
    state = { resetAfter: false, emptyAfter: false, applicationId: undefined, onAnswered: undefined };
    states.set(request, state);
  }
  return state;
}

/** The authenticated application of a request; throws if the auth hook did not run (a wiring bug). */
export function applicationOf(request: FastifyRequest): string {
  const applicationId = requestState(request).applicationId;
  if (applicationId === undefined) throw new Error(`route ${request.url} ran without authentication`);
  return applicationId;
}
