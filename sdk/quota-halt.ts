/**
 * Sharing a halt for a spent daily quota between clients that serve one job. A client with
 * `haltWhenQuotaExhausted` stops sending after the platform's first `quota_exhausted` refusal; a
 * job that runs several clients (a deployment runs one per provider process) passes each of them a
 * {@link QuotaHaltShare}, so that a refusal one client was given halts the others too. How the
 * clients reach each other is the share's business: the SDK only tells it and asks it.
 */
import type { HttpMethod } from "./transport";

/** What the platform said when it refused a request for the spent daily quota. */
export interface QuotaRefusal {
  readonly method: string;
  readonly path: string;
  readonly status?: number;
  readonly errCode?: string;
  readonly errMsg?: string;
  readonly requestId?: string;
}

/** A request a client is about to send. */
export interface OutgoingRequest {
  readonly method: HttpMethod;
  /** Path relative to the base URL. */
  readonly path: string;
}

/** The link between the clients of one job; see `DevicePlatformClientOptions.quotaHaltShare`. */
export interface QuotaHaltShare {
  /**
   * Told once, when the platform refuses one of this client's requests for the spent quota: the
   * share passes it on to the job's other clients. Must not throw (the refused operation fails
   * with the platform's answer either way).
   */
  refused(refusal: QuotaRefusal): void;
  /**
   * Asked before each request this client would send (each attempt, token requests included): a
   * refusal another client of the job was given, or undefined to send. A refusal halts this client
   * for good: the request and every later one fail without being sent, with a `QuotaHaltedError`.
   */
  refusedElsewhere(request: OutgoingRequest): Promise<QuotaRefusal | undefined>;
}
