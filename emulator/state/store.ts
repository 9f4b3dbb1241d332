import {
  DEFAULT_APPLICATION_ID,
  DEFAULT_APPLICATION_NAME,
  FIRST_APPLICATION_ID,
  FIRST_DEVICE_ID,
  FIRST_TASK_ID,
  IdSequence,
} from "./id-sequence";
import type {
  AccessTokenRecord,
  Application,
  DeviceRecord,
  PropertyReportRecord,
  RefreshTokenRecord,
  RpsRecord,
  ServiceCallRecord,
  TaskRecord,
} from "./types";

/** Serial numbers compare without regard to case; this is the key they are indexed by. */
export function serialKey(sn: string): string {
  return sn.toUpperCase();
}

/** The id sequences' next values, as kept in a snapshot. */
export interface SequenceState {
  device: string;
  task: string;
  application: string;
}

/**
 * All of the emulator's platform state, in memory. Every mutation goes through a method here and
 * notifies the change listeners (the state file writer), so nothing is saved half-way.
 */
export class EmulatorStore {
  readonly applications = new Map<string, Application>();
  readonly devices = new Map<string, DeviceRecord>();
  readonly rpsRecords = new Map<string, RpsRecord>();
  readonly tasks = new Map<string, TaskRecord>();
  readonly accessTokens = new Map<string, AccessTokenRecord>();
  readonly refreshTokens = new Map<string, RefreshTokenRecord>();
  /** Property reports by deviceId, in recording order (kept in memory only, not in the state file). */
  readonly propertyReports = new Map<string, PropertyReportRecord[]>();
  private readonly reportListeners: ((report: PropertyReportRecord) => void)[] = [];
  /** Accepted service calls, in order (kept in memory only). */
  readonly serviceCalls: ServiceCallRecord[] = [];
  private reportSeq = 0;
  readonly deviceIds = new IdSequence(FIRST_DEVICE_ID);
  readonly taskIds = new IdSequence(FIRST_TASK_ID);
  readonly applicationIds = new IdSequence(FIRST_APPLICATION_ID);
  private readonly bySerial = new Map<string, string>();
  private readonly listeners: (() => void)[] = [];

  constructor() {
    this.addApplication({ applicationId: DEFAULT_APPLICATION_ID, applicationName: DEFAULT_APPLICATION_NAME });
  }

  /** Registers a callback run after every change. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Tells the listeners that something changed. */
  changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Adds (or renames) an application. */
  addApplication(application: Application): void {
    this.applications.set(application.applicationId, application);
    this.changed();
  }

  /** The application with this id, creating it with a generated name if it does not exist. */
  ensureApplication(applicationId: string): Application {
    const existing = this.applications.get(applicationId);
    if (existing) return existing;
    const created = { applicationId, applicationName: `application-${applicationId}` };
    this.addApplication(created);
    return created;
  }

  /** The device holding this serial number, in any application. */
  deviceBySerial(sn: string): DeviceRecord | undefined {
    const deviceId = this.bySerial.get(serialKey(sn));
    return deviceId === undefined ? undefined : this.devices.get(deviceId);
  }

  /** The device with this id if it belongs to this application. */
  deviceInApplication(deviceId: string, applicationId: string): DeviceRecord | undefined {
    const device = this.devices.get(deviceId);
    return device?.applicationId === applicationId ? device : undefined;
  }

  /** The devices of one application, in creation order. */
  devicesOf(applicationId: string): DeviceRecord[] {
    return [...this.devices.values()].filter((d) => d.applicationId === applicationId);
  }

  /** Stores a new device. */
  insertDevice(device: DeviceRecord): void {
    this.devices.set(device.deviceId, device);
    this.bySerial.set(serialKey(device.sn), device.deviceId);
    this.changed();
  }

  /** Applies a change to a stored device and notifies the listeners. */
  updateDevice(device: DeviceRecord, change: (device: DeviceRecord) => void): void {
    change(device);
    this.changed();
  }

  /** Removes a device; returns whether it existed. */
  deleteDevice(deviceId: string): boolean {
    const device = this.devices.get(deviceId);
    if (!device) return false;
    this.devices.delete(deviceId);
    this.bySerial.delete(serialKey(device.sn));
    this.changed();
    return true;
  }

  /** The RPS record of a serial number, in any application. */
  rpsRecord(sn: string): RpsRecord | undefined {
    return this.rpsRecords.get(serialKey(sn));
  }

  /** Creates or replaces an RPS record. */
  putRpsRecord(record: RpsRecord): void {
    this.rpsRecords.set(serialKey(record.sn), record);
    this.changed();
  }

  /** Removes an RPS record; returns whether it existed. */
  deleteRpsRecord(sn: string): boolean {
    const existed = this.rpsRecords.delete(serialKey(sn));
    if (existed) this.changed();
    return existed;
  }

  /** Stores or updates a task. */
  putTask(task: TaskRecord): void {
    this.tasks.set(task.taskId, task);
    this.changed();
  }

  /** Appends a property report to its device's history; returns the stored record. */
  addPropertyReport(report: Omit<PropertyReportRecord, "seq">): PropertyReportRecord {
    const record: PropertyReportRecord = { ...report, seq: (this.reportSeq += 1) };
    const history = this.propertyReports.get(report.deviceId) ?? [];
    history.push(record);
    this.propertyReports.set(report.deviceId, history);
    for (const listener of this.reportListeners) listener(record);
    return record;
  }

  /**
   * Calls `listener` with every property report recorded from now on (the `DEVICE_DATA` webhook):
   * reports have one place of record, so whatever must hear of them is attached once, here.
   */
  onPropertyReport(listener: (report: PropertyReportRecord) => void): void {
    this.reportListeners.push(listener);
  }

  /** Records an accepted service call. */
  addServiceCall(call: ServiceCallRecord): void {
    this.serviceCalls.push(call);
  }

  /** Current sequence positions. */
  sequences(): SequenceState {
    return {
      device: this.deviceIds.peek(),
      task: this.taskIds.peek(),
      application: this.applicationIds.peek(),
    };
  }

  /** Forgets everything (tokens too unless kept) and restarts the id sequences. */
  clear(options: { keepTokens?: boolean } = {}): void {
    const defaultApplication = this.applications.get(DEFAULT_APPLICATION_ID);
    this.applications.clear();
    if (defaultApplication) this.applications.set(DEFAULT_APPLICATION_ID, defaultApplication);
    this.devices.clear();
    this.bySerial.clear();
    this.rpsRecords.clear();
    this.tasks.clear();
    this.propertyReports.clear();
    this.serviceCalls.length = 0;
    this.reportSeq = 0;
    if (!options.keepTokens) {
      this.accessTokens.clear();
      this.refreshTokens.clear();
    }
    this.deviceIds.reset();
    this.taskIds.reset();
    this.applicationIds.reset();
    this.changed();
  }

  /** Re-indexes serial numbers after devices were loaded directly into {@link devices}. */
  reindex(): void {
    this.bySerial.clear();
    for (const device of this.devices.values()) this.bySerial.set(serialKey(device.sn), device.deviceId);
  }
}
