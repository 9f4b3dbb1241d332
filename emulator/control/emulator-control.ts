import { setTimeout as sleep } from "node:timers/promises";
import { fetch } from "undici";
import type { CounterSnapshot } from "../counters";
import type { QuotaView } from "../daily-quota";
import type { FaultConfig, FaultConfigInput } from "../faults/fault-config";
import { parseJson, stringifyJson } from "../http/lossless-json";
import type { PropertyReportRecord, ServiceCallRecord, TaskRecord } from "../state/types";
import type { HoldThen, HoldView } from "./request-holds";
import type {
  DeviceChangeInput,
  QuotaChangeInput,
  SeedDeviceInput,
  SeedInput,
  SeedResult,
} from "./control-schemas";
import type { ControlDevice, EmulatorStateView } from "./control-views";
import type { InterleaveInput, InterleaveView } from "./interleave";
import type { WebhookDeliveriesView } from "../webhooks/webhook-routes";

/** A failed control API call. */
export class EmulatorControlError extends Error {
  constructor(
    readonly status: number,
    readonly errCode: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = "EmulatorControlError";
  }
}

/** How often {@link EmulatorControl.waitUntilHeld} asks; only how soon it notices depends on it. */
const HOLD_POLL_MS = 25;

/** Options of {@link EmulatorControl.waitUntilHeld}. */
export interface WaitOptions {
  /** Gives up after this long (default two minutes): a guard against a hang, not a kill point. */
  timeoutMs?: number;
  /** Stops waiting, e.g. when the process that should send the request has ended. */
  signal?: AbortSignal;
}

interface Envelope {
  status?: string;
  data?: unknown;
  errCode?: string;
  errMsg?: string;
}

/**
 * A small typed client of the emulator's `/__emulator/` control API (over undici's fetch). Ids are
 * strings of digits; property values beyond 2^53 arrive as `bigint`.
 */
export class EmulatorControl {
  private readonly baseUrl: string;

  /** @param baseUrl the emulator's URL, e.g. `http://127.0.0.1:4010`. */
  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
  }

  /** Clears all state, faults, counters and the clock offset (tokens too unless `keepTokens`). */
  async reset(options: { keepTokens?: boolean } = {}): Promise<void> {
    await this.call("POST", "/reset", options);
  }

  /** Injects faults into platform requests; returns the configuration with defaults applied. */
  async setFaults(faults: FaultConfigInput): Promise<FaultConfig> {
    return (await this.call("PUT", "/faults", faults)) as FaultConfig;
  }

  /** Stops injecting faults. */
  async clearFaults(): Promise<void> {
    await this.call("DELETE", "/faults");
  }

  /**
   * Holds configuration tasks PENDING (`true`), as for devices that are offline, or lets them run
   * (`false`): held tasks then apply `taskDelayMs` later.
   */
  async holdTasks(held: boolean): Promise<void> {
    await this.call("PUT", "/tasks/hold", { held });
  }

  /** Moves the emulator clock forward (token expiry). */
  async advanceClock(seconds: number): Promise<void> {
    await this.call("POST", "/clock/advance", { seconds });
  }

  /** Changes a device out of band (name, description, tag, statuses, property values). */
  async changeDevice(deviceId: string, change: DeviceChangeInput): Promise<ControlDevice> {
    return (await this.call("PATCH", `/devices/${encodeURIComponent(deviceId)}`, change)) as ControlDevice;
  }

  /** The accepted service calls of a device (Invoke Device Services), oldest first, inputs as sent. */
  async serviceCalls(deviceId: string): Promise<ServiceCallRecord[]> {
    return (await this.call(
      "GET",
      `/devices/${encodeURIComponent(deviceId)}/service-calls`,
    )) as ServiceCallRecord[];
  }

  /** The property reports of a device as the history serves them, oldest first. */
  async propertyReports(deviceId: string): Promise<PropertyReportRecord[]> {
    return (await this.call(
      "GET",
      `/devices/${encodeURIComponent(deviceId)}/property-reports`,
    )) as PropertyReportRecord[];
  }

  /** Deletes a device out of band. */
  async deleteDevice(deviceId: string): Promise<void> {
    await this.call("DELETE", `/devices/${encodeURIComponent(deviceId)}`);
  }

  /** Puts a device on the platform directly, optionally in another application. */
  async seedDevice(seed: SeedDeviceInput): Promise<ControlDevice> {
    return (await this.call("POST", "/devices", seed)) as ControlDevice;
  }

  /**
   * Seeds many devices (any model, by serial-number prefix; optional property values) and RPS
   * records in one call, all or nothing; returns each device's id.
   */
  async seed(seed: SeedInput): Promise<SeedResult> {
    return (await this.call("POST", "/seed", seed)) as SeedResult;
  }

  /**
   * Schedules another writer's changes right before the `before`-th request of `route` (a counter
   * key such as `POST /devices/search`), counted from now.
   */
  async interleave(spec: InterleaveInput): Promise<InterleaveView> {
    return (await this.call("POST", "/interleave", spec)) as InterleaveView;
  }

  /** The interleavings still pending and those that ran, with the ids of the devices they added. */
  async interleavings(): Promise<InterleaveView> {
    return (await this.call("GET", "/interleave")) as InterleaveView;
  }

  /** Every device (all applications), RPS record and task. */
  async state(): Promise<EmulatorStateView> {
    return (await this.call("GET", "/state")) as EmulatorStateView;
  }

  /** Every configuration task with its state. */
  async tasks(): Promise<TaskRecord[]> {
    return (await this.call("GET", "/tasks")) as TaskRecord[];
  }

  /** The access and refresh tokens issued most recently (up to 1,000): what must never leak. */
  async issuedTokens(): Promise<string[]> {
    return ((await this.call("GET", "/tokens")) as { issued: string[] }).issued;
  }

  /** Platform request counts since start or the last reset. */
  async counters(): Promise<CounterSnapshot> {
    return (await this.call("GET", "/counters")) as CounterSnapshot;
  }

  /** The daily quota and each application's use of it today (used, remaining, refused). */
  async quota(): Promise<QuotaView> {
    return (await this.call("GET", "/quota")) as QuotaView;
  }

  /**
   * Sets an application's use today (`used` or `remaining`) and optionally the daily quota
   * (null: unlimited); the default application unless `applicationId`. Returns the new view.
   */
  async setQuota(change: QuotaChangeInput): Promise<QuotaView> {
    return (await this.call("PUT", "/quota", change)) as QuotaView;
  }

  /** Sets the request counts back to zero. */
  async resetCounters(): Promise<void> {
    await this.call("DELETE", "/counters");
  }

  /**
   * Holds the requests of `route` (a counter key, e.g. `POST /devices`) after the `after`th from
   * now: they wait, unanswered, until {@link release}, then perform as if they had just arrived
   * (`then: "perform"`) or are answered 503 unperformed (`"fail"`). Returns the hold's id.
   */
  async hold(route: string, after: number, then: HoldThen = "perform"): Promise<string> {
    return ((await this.call("POST", "/holds", { route, after, then })) as { holdId: string }).holdId;
  }

  /** Every hold still set, with how many requests passed it and how many wait now. */
  async holds(): Promise<HoldView[]> {
    return (await this.call("GET", "/holds")) as HoldView[];
  }

  /**
   * Waits until at least `count` requests wait at a hold (polling; no assumption on how soon, only an
   * overall `timeoutMs` against a hang). Throws if the hold is released meanwhile, the time is up, or
   * `signal` aborts.
   */
  async waitUntilHeld(holdId: string, count = 1, options: WaitOptions = {}): Promise<HoldView> {
    const { timeoutMs = 120_000, signal } = options;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      signal?.throwIfAborted();
      const hold = (await this.holds()).find((h) => h.holdId === holdId);
      if (!hold) throw new Error(`hold ${holdId} is not set (released, or the emulator was reset)`);
      if (hold.held >= count) return hold;
      if (Date.now() > deadline) {
        throw new Error(`hold ${holdId} held ${hold.held} of ${count} request(s) after ${timeoutMs} ms`);
      }
      await sleep(HOLD_POLL_MS, undefined, { signal });
    }
  }

  /** Releases a hold's waiting requests as it says and removes it; returns how many were waiting. */
  async release(holdId: string): Promise<number> {
    return ((await this.call("POST", `/holds/${encodeURIComponent(holdId)}/release`)) as { released: number })
      .released;
  }

  /** Releases every hold, each as it says; returns how many requests were waiting. */
  async releaseAll(): Promise<number> {
    return ((await this.call("DELETE", "/holds")) as { released: number }).released;
  }

  /** The webhook's id and every webhook delivery so far, with its attempts. */
  async webhookDeliveries(): Promise<WebhookDeliveriesView> {
    return (await this.call("GET", "/webhooks/deliveries")) as WebhookDeliveriesView;
  }

  /** Sends a `WEBHOOK_TEST` event (the platform's Test button); returns its eventId. */
  async testWebhook(): Promise<string> {
    return ((await this.call("POST", "/webhooks/test")) as { eventId: string }).eventId;
  }

  /**
   * Waits until every configuration task that is not held has run and no webhook event is queued,
   * in flight or waiting for a retry (each delivery delivered or given up); returns the deliveries.
   */
  async waitForWebhooks(): Promise<WebhookDeliveriesView> {
    return (await this.call("POST", "/webhooks/settle")) as WebhookDeliveriesView;
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.baseUrl}/__emulator${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : stringifyJson(body),
    });
    const text = await response.text();
    let envelope: Envelope;
    try {
      envelope = parseJson(text) as Envelope;
    } catch {
      throw new EmulatorControlError(
        response.status,
        undefined,
        `${method} ${path}: HTTP ${response.status} ${text}`,
      );
    }
    if (!response.ok || envelope.status !== "Success") {
      const detail = `${envelope.errCode ?? "unknown_error"}: ${envelope.errMsg ?? text}`;
      throw new EmulatorControlError(
        response.status,
        envelope.errCode,
        `${method} ${path}: HTTP ${response.status} ${detail}`,
      );
    }
    return envelope.data;
  }
}
