import { TokenService } from "./auth/token-service";
import { Clock } from "./clock";
import { RequestHolds } from "./control/request-holds";
import { RequestCounters } from "./counters";
import { DailyQuota } from "./daily-quota";
import type { ViewContext } from "./devices/device-views";
import { Interleavings } from "./control/interleave";
import { FaultInjector } from "./faults/fault-injector";
import { idRenderer, type RenderedId } from "./http/ids";
import type { ResolvedOptions } from "./options";
import { RateLimiter } from "./rate-limiter";
import { DEFAULT_APPLICATION_ID } from "./state/id-sequence";
import { EmulatorStore } from "./state/store";
import type { Application } from "./state/types";
import { TaskRunner } from "./tasks/task-runner";
import { WebhookDispatcher } from "./webhooks/delivery-queue";
import { emitDeviceData, emitTaskData } from "./webhooks/emit";

/** Everything a handler needs: state, clock, fault and rate settings, and the id renderer. */
export class EmulatorContext implements ViewContext {
  readonly store = new EmulatorStore();
  readonly clock = new Clock();
  readonly faults = new FaultInjector();
  readonly counters = new RequestCounters();
  readonly interleavings = new Interleavings();
  readonly holds = new RequestHolds();
  readonly rateLimiter: RateLimiter;
  readonly quota: DailyQuota;
  readonly tokens: TokenService;
  readonly tasks: TaskRunner;
  /** Webhook deliveries; undefined when the emulator runs without a webhook URL and secret. */
  readonly webhooks: WebhookDispatcher | undefined;
  readonly renderId: (id: string) => RenderedId;

  constructor(readonly options: ResolvedOptions) {
    this.rateLimiter = new RateLimiter(options.rateLimit);
    this.quota = new DailyQuota(options.dailyQuota);
    this.tokens = new TokenService(this.store, this.clock, {
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      applicationId: DEFAULT_APPLICATION_ID,
      accessTtlSeconds: options.tokenTtlSeconds,
      refreshTtlSeconds: options.refreshTokenTtlSeconds,
    });
    this.webhooks = options.webhooks && new WebhookDispatcher(options.webhooks, this.clock);
    this.tasks = new TaskRunner(this.store, this.clock, this.faults, options.taskDelayMs, {
      finished: (task) => emitTaskData(this, task),
    });
    // Every property report (task, PATCH, control API, auto-provisioning) is a DEVICE_DATA event.
    this.store.onPropertyReport((report) =>
      emitDeviceData(this, report.deviceId, report.properties, report.ts),
    );
    this.renderId = idRenderer(options.numericIds);
  }

  /** An application by id (for device views). */
  application(applicationId: string): Application | undefined {
    return this.store.applications.get(applicationId);
  }

  /**
   * `POST /__emulator/reset`: all platform state, faults, counters, holds, rate windows, the day's quota
   * use and the clock offset. The credentials stay (they are options); tokens go too unless `keepTokens`. Held
   * requests are answered 503 unperformed: none of them may write into the state that follows.
   */
  reset(options: { keepTokens?: boolean } = {}): void {
    this.holds.releaseAll("fail");
    this.tasks.cancelAll();
    this.webhooks?.reset();
    this.store.clear(options);
    this.faults.clear();
    this.counters.reset();
    this.interleavings.clear();
    this.rateLimiter.reset();
    this.quota.reset();
    this.clock.reset();
  }
}
