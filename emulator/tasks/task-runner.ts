import { modelByKey, tslOf } from "../catalogue";
import type { Clock } from "../clock";
import type { FaultInjector } from "../faults/fault-injector";
import type { EmulatorStore } from "../state/store";
import type { DeviceRecord, PropertyMap, TaskRecord } from "../state/types";
import { applyWaitingTemplates } from "../devices/auto-provision";
import { recordPropertyReport } from "../reports/property-reports";
import { mergeInto, withoutDropped } from "../tsl/apply-properties";
import { checkProperties } from "../tsl/validate-properties";

/** What the task runner tells the rest of the emulator (webhooks). */
export interface TaskListener {
  /** A task became SUCCEEDED or FAILED. */
  finished(task: TaskRecord): void;
}

const NO_LISTENER: TaskListener = { finished: () => undefined };

/**
 * Runs configuration tasks: each task is PENDING when created and, `delayMs` later, applies its
 * configuration to its device and becomes SUCCEEDED, or FAILED when the device is gone or the
 * configuration no longer fits the device's TSL model. While tasks are held (control API), new and
 * pending tasks stay PENDING — a device that is offline, as tests need it without timing.
 */
export class TaskRunner {
  private readonly timers = new Set<NodeJS.Timeout>();
  private held = false;

  constructor(
    private readonly store: EmulatorStore,
    private readonly clock: Clock,
    private readonly faults: FaultInjector,
    private readonly delayMs: number,
    private readonly listener: TaskListener = NO_LISTENER,
  ) {}

  /** Stores a new PENDING task and schedules it. */
  start(task: Omit<TaskRecord, "status" | "createdAt">): TaskRecord {
    const record: TaskRecord = { ...task, status: "PENDING", createdAt: this.clock.now() };
    this.store.putTask(record);
    this.schedule(record.taskId);
    return record;
  }

  /** Schedules every PENDING task again, e.g. after loading a state file. */
  resumePending(): void {
    for (const task of this.store.tasks.values()) if (task.status === "PENDING") this.schedule(task.taskId);
  }

  /** Cancels every scheduled run (reset, shutdown) and stops holding tasks. */
  cancelAll(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.held = false;
  }

  /**
   * Holds every task PENDING (`true`: scheduled runs are cancelled, new tasks are not scheduled) or
   * lets them run again (`false`: every PENDING task is scheduled, `delayMs` from now).
   */
  hold(held: boolean): void {
    if (held === this.held) return;
    this.held = held;
    if (held) {
      for (const timer of this.timers) clearTimeout(timer);
      this.timers.clear();
    } else {
      applyWaitingTemplates(this.store, this.clock);
      this.resumePending();
    }
  }

  /** Whether tasks are held PENDING. */
  isHolding(): boolean {
    return this.held;
  }

  private schedule(taskId: string): void {
    if (this.held) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.run(taskId);
    }, this.delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private run(taskId: string): void {
    const task = this.store.tasks.get(taskId);
    if (!task || task.status !== "PENDING") return;
    const device = this.store.deviceInApplication(task.deviceId, task.applicationId);
    if (!device) return this.finish(task, { error: `device ${task.deviceId} no longer exists` });
    if (task.type === "PROFILE") return this.applyProfile(task, device);
    return this.applyTsl(task, device);
  }

  private applyProfile(task: TaskRecord, device: DeviceRecord): void {
    const applied: PropertyMap = {};
    for (const { key, value } of task.config.values ?? []) applied[key] = value;
    this.store.updateDevice(device, (d) => Object.assign(d.profile, applied));
    this.finish(task, { applied });
  }

  private applyTsl(task: TaskRecord, device: DeviceRecord): void {
    const tsl = tslOf(modelByKey(device.modelKey), device.tslVersion);
    const { values, problems } = checkProperties(tsl, task.config.properties ?? {});
    if (problems.length > 0) return this.finish(task, { error: problems.join("; ") });
    const applied = withoutDropped(values, this.faults.droppedProperties());
    const now = this.clock.now();
    this.store.updateDevice(device, (d) => {
      mergeInto(d.properties, applied);
      d.lastUpdateTime = now;
    });
    recordPropertyReport(this.store, device.deviceId, applied, now);
    this.finish(task, { applied });
  }

  private finish(task: TaskRecord, outcome: { applied?: PropertyMap; error?: string }): void {
    task.status = outcome.error === undefined ? "SUCCEEDED" : "FAILED";
    task.finishedAt = this.clock.now();
    if (outcome.applied) task.applied = outcome.applied;
    if (outcome.error !== undefined) task.error = outcome.error;
    this.store.putTask(task);
    this.listener.finished(task);
  }
}
