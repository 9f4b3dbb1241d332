import { modelByKey } from "../catalogue";
import type { RenderedId } from "../http/ids";
import type { Application, DeviceRecord } from "../state/types";

/** How ids are rendered and where application names come from. */
export interface ViewContext {
  renderId(id: string): RenderedId;
  application(applicationId: string): Application | undefined;
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

function commonFields(device: DeviceRecord, view: ViewContext): Record<string, unknown> {
  const model = modelByKey(device.modelKey);
  const application = view.application(device.applicationId);
  return {
    sn: device.sn,
    ...optional("devEUI", device.devEUI),
    ...optional("imei", device.imei),
    name: device.name,
    model: model.model,
    hardwareVersion: model.hardwareVersion,
    firmwareVersion: model.firmwareVersion,
    ...optional("electricity", device.electricity),
    lastUpdateTime: device.lastUpdateTime,
    application: {
      applicationId: view.renderId(device.applicationId),
      applicationName: application?.applicationName ?? "",
    },
    ...optional("project", device.project),
    ...optional("description", device.description),
    deviceId: view.renderId(device.deviceId),
    connectStatus: device.connectStatus,
    licenseStatus: device.licenseStatus,
    autopStatus: device.autopStatus ?? "DISABLE",
    tag: [...device.tag],
  };
}

/**
 * Device as Query a Specific Device returns it: rpsStatus `ACTIVATE`/`UNACTIVATED`, and deviceType as
 * the model spells it there (`SUB-DEVICE` for the sub-device model, like the platform's examples).
 */
export function deviceQueryView(device: DeviceRecord, view: ViewContext): Record<string, unknown> {
  return {
    ...commonFields(device, view),
    rpsStatus: device.rpsEnabled ? "ACTIVATE" : "UNACTIVATED",
    deviceType: modelByKey(device.modelKey).deviceTypeInQuery,
    ...device.sendAs,
  };
}

/** Device_Details as search results carry them: plus mac/wlanMac, rpsStatus `ENABLED`/`DISABLED`. */
export function deviceSearchView(device: DeviceRecord, view: ViewContext): Record<string, unknown> {
  return {
    ...commonFields(device, view),
    ...optional("mac", device.mac),
    ...optional("wlanMac", device.wlanMac),
    rpsStatus: device.rpsEnabled ? "ENABLED" : "DISABLED",
    deviceType: modelByKey(device.modelKey).deviceType,
    ...device.sendAs,
  };
}

/** The Added or updated device result: sn, deviceId, and devEUI/imei for models that return them. */
export function deviceResultView(device: DeviceRecord, view: ViewContext): Record<string, unknown> {
  return {
    sn: device.sn,
    deviceId: view.renderId(device.deviceId),
    ...optional("devEUI", device.devEUI),
    ...optional("imei", device.imei),
  };
}
