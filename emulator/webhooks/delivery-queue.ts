/**
 * The emulator's webhook deliveries: events are queued as they happen and POSTed, never inside the
 * API request that caused them. One delivery is in flight at a time, so events that become ready
 * meanwhile (or in the same tick) travel together in the next delivery, in the order they happened.
 * A delivery that fails (non-2xx answer, connection error, timeout) is sent again, with the same
 * body and freshly signed headers, after a backoff that doubles each time, up to `maxAttempts`.
 */
import { randomUUID } from "node:crypto";
import { Agent, request } from "undici";
import type { Clock } from "../clock";
import { stringifyJson } from "../http/lossless-json";
import type { WebhookSettings } from "../options";
import { signedHeaders } from "./signing";
import type { WebhookEvent } from "./webhook-events";

/** At most this many events in one delivery; more wait for the next. */
export const MAX_EVENTS_PER_DELIVERY = 100;

/** The control API shows this many deliveries, the most recent; older ones are forgotten. */
export const DELIVERY_HISTORY = 1_000;

/** One POST of a delivery. */
export interface DeliveryAttempt {
  attempt: number;
  /** Emulator-clock milliseconds when the attempt was signed and sent. */
  sentAt: number;
  /** The receiver's HTTP status, when it answered. */
  statusCode?: number;
  /** Why no answer came (connection refused, timeout, …). */
  error?: string;
  ok: boolean;
}

/** `sending` (an attempt in flight), `retrying` (waiting for the backoff), `delivered` or `failed`. */
export type DeliveryState = "sending" | "retrying" | "delivered" | "failed";

/** A delivery as the control API shows it. */
export interface DeliveryView {
  deliveryId: string;
  state: DeliveryState;
  eventIds: string[];
  eventTypes: string[];
  attempts: DeliveryAttempt[];
}

interface Delivery extends DeliveryView {
  body: string;
}

/** Sends the webhook events of one emulator. */
export class WebhookDispatcher {
  /** The webhook's id, sent as `x-msc-webhook-uuid`; stable for the emulator's lifetime. */
  readonly webhookUuid = randomUUID();
  private readonly queue: WebhookEvent[] = [];
  private readonly deliveries: Delivery[] = [];
  private readonly agent = new Agent({ keepAliveTimeout: 1_000 });
  private active: Delivery | undefined;
  private flushScheduled = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private inFlight: AbortController | undefined;
  /** Bumped by reset: an attempt that was in flight must not touch what follows. */
  private generation = 0;
  private waiters: (() => void)[] = [];
  private closed = false;

  /** @param historySize deliveries the control API keeps (tests make it small). */
  constructor(
    private readonly settings: WebhookSettings,
    private readonly clock: Clock,
    private readonly historySize = DELIVERY_HISTORY,
  ) {}

  /** Whether {@link close} was called: nothing is sent any more. */
  isClosed(): boolean {
    return this.closed;
  }

  /** Queues an event; it is sent on a later tick, batched with whatever else is ready then. */
  enqueue(event: WebhookEvent): void {
    if (this.closed) return;
    this.queue.push(event);
    if (this.active || this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.startNext();
    });
  }

  /** The most recent deliveries ({@link DELIVERY_HISTORY} by default), oldest first, bodies left out. */
  views(): DeliveryView[] {
    return this.deliveries.map(({ body: _body, ...view }) => ({ ...view, attempts: [...view.attempts] }));
  }

  /** Resolves once nothing is queued, in flight or waiting for a retry. */
  settled(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Forgets every delivery and queued event; an attempt in flight is aborted and its result ignored. */
  reset(): void {
    this.generation += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.inFlight?.abort();
    this.inFlight = undefined;
    this.active = undefined;
    this.queue.length = 0;
    this.deliveries.length = 0;
    this.notifyIfIdle();
  }

  /** Resets and closes the connection pool (emulator shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    this.reset();
    await this.agent.destroy();
  }

  private isIdle(): boolean {
    return !this.active && !this.flushScheduled && this.queue.length === 0;
  }

  private notifyIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  private startNext(): void {
    if (this.active || this.queue.length === 0) return this.notifyIfIdle();
    const events = this.queue.splice(0, MAX_EVENTS_PER_DELIVERY);
    const delivery: Delivery = {
      deliveryId: randomUUID(),
      state: "sending",
      eventIds: events.map((e) => e.eventId),
      eventTypes: events.map((e) => e.eventType),
      attempts: [],
      body: stringifyJson(events),
    };
    this.deliveries.push(delivery);
    // Only settled ones go: the delivery just pushed is the newest.
    if (this.deliveries.length > this.historySize)
      this.deliveries.splice(0, this.deliveries.length - this.historySize);
    this.active = delivery;
    void this.attempt(delivery);
  }

  private async attempt(delivery: Delivery): Promise<void> {
    const generation = this.generation;
    delivery.state = "sending";
    const sentAt = this.clock.now();
    const result = await this.post(delivery.body, sentAt);
    if (generation !== this.generation) return;
    delivery.attempts.push({ attempt: delivery.attempts.length + 1, sentAt, ...result });
    if (result.ok || delivery.attempts.length >= this.settings.maxAttempts) {
      delivery.state = result.ok ? "delivered" : "failed";
      this.active = undefined;
      return this.startNext();
    }
    delivery.state = "retrying";
    const backoff = this.settings.retryDelayMs * 2 ** (delivery.attempts.length - 1);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.attempt(delivery);
    }, backoff);
    this.retryTimer.unref();
  }

  /** One signed POST; never throws. */
  private async post(body: string, sentAt: number): Promise<Omit<DeliveryAttempt, "attempt" | "sentAt">> {
    const { url, secret, timeoutMs } = this.settings;
    const controller = new AbortController();
    this.inFlight = controller;
    const timer = setTimeout(() => controller.abort(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
    try {
      const response = await request(url, {
        method: "POST",
        dispatcher: this.agent,
        headers: {
          "content-type": "application/json; charset=utf-8",
          ...signedHeaders(secret, this.webhookUuid, sentAt),
        },
        body,
        signal: controller.signal,
      });
      await response.body.dump();
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return { statusCode: response.statusCode, ok };
    } catch (error) {
      return { error: describe(error), ok: false };
    } finally {
      clearTimeout(timer);
      if (this.inFlight === controller) this.inFlight = undefined;
    }
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? `${error.message} (${code})` : error.message;
}
