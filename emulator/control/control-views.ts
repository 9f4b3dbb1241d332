import { modelByKey, type DeviceType } from "../catalogue";
import type { DeviceRecord, RpsRecord, TaskRecord } from "../state/types";

/** A device as the control API shows it: the stored record plus its model name and device type. */
export interface ControlDevice extends DeviceRecord {
  model: string;
  deviceType: DeviceType;
}

/** `GET /__emulator/state`. */
export interface EmulatorStateView {
  devices: ControlDevice[];
  rpsRecords: RpsRecord[];
  tasks: TaskRecord[];
}

/** The control API's view of a device (ids always strings of digits). */
export function controlDevice(device: DeviceRecord): ControlDevice {
  const model = modelByKey(device.modelKey);
  return { ...device, model: model.model, deviceType: model.deviceType };
}
