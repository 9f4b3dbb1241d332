/**
 * A spent daily quota across the provider processes of one deployment. Each process (the dynamic
 * provider host, each plugin instance) has its own platform client, which halts on the platform's
 * first `quota_exhausted` refusal; this share, the SDK's `quotaHaltShare`, makes one process's
 * refusal halt the others: the refused process publishes it to the deployment's shared record
 * (shared-record.ts), and every process reads the others' new facts before it sends a request.
 *
 * Reading costs a directory listing and a look at each other process's file, so it is done before
 * every request that is not a GET (writes, searches, token requests), and before a GET only when
 * the last read is older than {@link READ_CHECK_INTERVAL_MS}: a GET sent meanwhile is at worst
 * refused too, and changes nothing. A request already in flight in one process when another is
 * refused cannot be recalled; the platform refuses it as well.
 */
import type { OutgoingRequest, QuotaHaltShare, QuotaRefusal } from "../../sdk/index";
import { machineMs } from "../deployment/machine-clock";
import {
  SharedRecordError,
  catchUpWithOthers,
  onOthersFact,
  publish,
  type SharedFact,
} from "../deployment/shared-record";

/** How long a GET may go on a view of the other processes' refusals without reading it again. */
export const READ_CHECK_INTERVAL_MS = 250;

/** The deployment's quota halt, as one process's client sees it. */
export class DeploymentQuotaShare implements QuotaHaltShare {
  private seen: QuotaRefusal | undefined;
  private lastReadAt = Number.NEGATIVE_INFINITY;
  private unreadableTold = false;

  /**
   * @param now the machine's monotonic clock, which re-reads go by (tests move it): on the wall
   *   clock, one stepped back an hour made no re-read for an hour.
   * @param readIntervalMs see {@link READ_CHECK_INTERVAL_MS}.
   */
  constructor(
    private readonly now: () => number = machineMs,
    private readonly readIntervalMs: number = READ_CHECK_INTERVAL_MS,
  ) {}

  /** Takes a fact another process of the deployment published (registered with `onOthersFact`). */
  take(fact: SharedFact): void {
    if (fact.t !== "quota-exhausted" || this.seen !== undefined) return;
    this.seen = refusalOf(fact);
  }

  /** Publishes this process's refusal to the deployment's other processes. */
  refused(refusal: QuotaRefusal): void {
    try {
      publish({ t: "quota-exhausted", ...refusalOf(refusal), at: this.now() });
    } catch (error) {
      // The refused operation fails with the platform's answer anyway; the other processes then
      // learn of the spent quota from the platform's refusal of their own next request.
      process.stderr.write(
        `devplatform: could not tell the deployment's other provider processes that the daily quota is spent: ${String(error)}\n`,
      );
    }
  }

  /** The refusal another process of the deployment published, reading their facts when due. */
  async refusedElsewhere(request: OutgoingRequest): Promise<QuotaRefusal | undefined> {
    if (this.seen === undefined && this.readDue(request)) await this.readOthers();
    return this.seen;
  }

  /** Forgets what was seen (the next deployment's process, in in-process tests). */
  reset(): void {
    this.seen = undefined;
    this.lastReadAt = Number.NEGATIVE_INFINITY;
    this.unreadableTold = false;
  }

  /** A GET may go on a recent view: sent in vain, it is refused and changes nothing. */
  private readDue(request: OutgoingRequest): boolean {
    return request.method !== "GET" || this.now() - this.lastReadAt >= this.readIntervalMs;
  }

  private async readOthers(): Promise<void> {
    this.lastReadAt = this.now();
    try {
      await catchUpWithOthers();
    } catch (error) {
      if (!(error instanceof SharedRecordError)) throw error;
      // Unlike a delete, a request need not fail closed here: if the quota is spent, the platform
      // refuses it, and this process halts on that. Deletes still fail on the same record.
      if (!this.unreadableTold) {
        this.unreadableTold = true;
        process.stderr.write(
          "devplatform: the deployment's shared record cannot be read, so a spent daily quota another provider " +
            `process met may not be known here (requests go on; the platform refuses them if it is spent): ${error.message}\n`,
        );
      }
    }
  }
}

/** The parts of a refusal the other processes repeat (never an error object's other fields). */
function refusalOf(refusal: QuotaRefusal): QuotaRefusal {
  const { method, path, status, errCode, errMsg, requestId } = refusal;
  return { method, path, status, errCode, errMsg, requestId };
}

/** The share of this process's platform client (platform-client.ts). */
export const deploymentQuotaShare = new DeploymentQuotaShare();
onOthersFact((fact) => deploymentQuotaShare.take(fact));
