import { fetch } from "undici";
import type { CounterSnapshot } from "../counters";
import type { FaultConfig, FaultConfigInput } from "../faults/fault-config";
import { parseJson, stringifyJson } from "../http/lossless-json";
import type { TaskRecord } from "../state/types";
import type { DeviceChangeInput, SeedDeviceInput, SeedInput, SeedResult } from "./control-schemas";
import type { ControlDevice, EmulatorStateView } from "./control-views";

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

  /** Sets the request counts back to zero. */
  async resetCounters(): Promise<void> {
    await this.call("DELETE", "/counters");
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
