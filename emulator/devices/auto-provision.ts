/**
 * Auto-provisioning at Add a Device: `autoProvision: true` with a profile template (`config`, a JSON
 * object, on v1; `profile`, its JSON text, on v1.0) applies the template's properties to the device
 * as it is added. The template is checked like Update Device Properties Incrementally before the
 * device is added (a bad one is a 400 and adds nothing). While configuration tasks are held (the
 * control API's stand-in for devices that are not connected) the template waits (`WAITING`) and is
 * applied when they are let run again (`SUCCESS`); a device added without auto-provisioning is
 * `DISABLE`.
 */
import type { Clock } from "../clock";
import { invalidParameter } from "../http/emulator-error";
import { parseJson } from "../http/lossless-json";
import { recordPropertyReport } from "../reports/property-reports";
import type { EmulatorStore } from "../state/store";
import type { DeviceRecord, PropertyMap } from "../state/types";
import { mergeInto } from "../tsl/apply-properties";

/** The template fields of an Add a Device body. */
export interface AutoProvisionRequest {
  readonly autoProvision?: boolean | undefined;
  readonly config?: unknown;
  readonly profile?: string | undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function templateOf(request: AutoProvisionRequest): Record<string, unknown> {
  let template = request.config;
  if (template === undefined && request.profile !== undefined) {
    try {
      template = parseJson(request.profile);
    } catch {
      throw invalidParameter("profile: not JSON text of a profile template");
    }
  }
  if (template === undefined) {
    throw invalidParameter(
      "config (v1) or profile (v1.0): a profile template is required when autoProvision is true",
    );
  }
  if (!isPlainObject(template)) throw invalidParameter("config: a profile template is a JSON object");
  return template;
}

/**
 * The properties of the template an Add a Device body gives, undefined when it does not ask for
 * auto-provisioning (a template without `autoProvision: true` is ignored). Only TSL templates are
 * emulated: `type` absent or `TSL`, `properties` an object of property id → value.
 */
export function templateProperties(request: AutoProvisionRequest): Record<string, unknown> | undefined {
  if (request.autoProvision !== true) return undefined;
  const template = templateOf(request);
  if (template.type !== undefined && template.type !== "TSL") {
    throw invalidParameter(
      `config.type: only TSL profile templates are supported, got ${String(template.type)}`,
    );
  }
  const { properties } = template;
  if (!isPlainObject(properties)) {
    throw invalidParameter("config.properties: an object of TSL property id → value is required");
  }
  return properties;
}

/** Applies checked template values to a device now: one property report, `autopStatus` SUCCESS. */
export function applyTemplate(
  store: EmulatorStore,
  device: DeviceRecord,
  values: PropertyMap,
  now: number,
): void {
  store.updateDevice(device, (d) => {
    mergeInto(d.properties, values);
    d.lastUpdateTime = now;
    d.autopStatus = "SUCCESS";
    delete d.pendingTemplate;
  });
  recordPropertyReport(store, device.deviceId, values, now);
}

/** Applies every template still WAITING (tasks were held when its device was added). */
export function applyWaitingTemplates(store: EmulatorStore, clock: Clock): void {
  for (const device of store.devices.values()) {
    if (device.autopStatus === "WAITING" && device.pendingTemplate) {
      applyTemplate(store, device, device.pendingTemplate, clock.now());
    }
  }
}
