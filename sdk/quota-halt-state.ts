/**
 * One client's halt for a spent daily quota (see `DevicePlatformClientOptions.haltWhenQuotaExhausted`
 * and quota-halt.ts): the first refusal it met or was told of, and the check before each request.
 */
import { QuotaHaltedError, type QuotaExhaustedError } from "./errors";
import type { QuotaHaltShare, QuotaRefusal } from "./quota-halt";
import type { HttpMethod } from "./transport";

/** What the halt needs to name an operation it refuses to send. */
export interface HaltedOperation {
  readonly method: HttpMethod;
  readonly path: string;
}

/** The quota halt of one client. */
export class QuotaHalt {
  /**
   * The platform's first refusal for a spent daily quota, when the client halts on it: this
   * client's own, or one another client of the job was given (see {@link QuotaHaltShare}).
   */
  private refusal: QuotaRefusal | undefined;

  /**
   * @param baseUrl named by the errors
   * @param share the link to the job's other clients (only when halting)
   * @param enabled whether the client halts at all
   */
  constructor(
    private readonly baseUrl: string,
    private readonly share: QuotaHaltShare | undefined,
    private readonly enabled: boolean,
  ) {}

  /** Halts on this client's first quota refusal, and tells the job's other clients of it. */
  haltOn(refusal: QuotaExhaustedError): void {
    if (!this.enabled || this.refusal !== undefined) return;
    this.refusal = refusal;
    this.share?.refused(refusal);
  }

  /**
   * Once halted — by this client's refusal, or, asked before every attempt, by one another client
   * of the job was given — an operation (or its next attempt) fails without a request, repeating
   * what the platform said when it refused (its errCode, errMsg and requestId).
   */
  async throwIfHalted(operation: HaltedOperation, attempts: number): Promise<void> {
    if (this.refusal === undefined && this.share !== undefined) {
      const elsewhere = await this.share.refusedElsewhere({ method: operation.method, path: operation.path });
      // Another request of this client may have been refused meanwhile: the first refusal stays.
      this.refusal ??= elsewhere;
    }
    const refusal = this.refusal;
    if (refusal === undefined) return;
    throw new QuotaHaltedError({
      method: operation.method,
      path: operation.path,
      attempts,
      status: refusal.status,
      errCode: refusal.errCode,
      errMsg: refusal.errMsg,
      requestId: refusal.requestId,
      note: `not sent: the platform had refused ${refusal.method} ${refusal.path} for the spent daily quota`,
      baseUrl: this.baseUrl,
    });
  }
}
