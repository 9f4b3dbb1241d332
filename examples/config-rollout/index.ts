/**
 * One configuration rolled out to many devices by one DeviceConfig: the provider validates every
 * value against each device's TSL model at preview, then applies it through configuration tasks
 * (at most 500 devices a task call).
 *
 * Try a bad value to see what a validation failure looks like, before anything is written:
 *
 *   pulumi config set config-rollout:reportInterval 90000
 *   pulumi preview
 *   # DeviceConfig.properties.reportInterval must be at most 86400 (TSL validator max …), got 90000
 */
import * as pulumi from "@pulumi/pulumi";
import { Device, DeviceConfig } from "pulumi-devplatform";

const config = new pulumi.Config("config-rollout");
const count = config.getNumber("devices") ?? 12;
const prefix = config.get("snPrefix") ?? "24C0FFEE";

const sensors = Array.from({ length: count }, (_, i) => {
  const sn = prefix + i.toString(16).toUpperCase().padStart(4, "0");
  // Named by serial number: a resource's name is its identity in state, and a serial number never changes.
  return new Device(sn, { sn, name: `rollout-sensor-${i}`, tags: ["rollout"] });
});

const rollout = new DeviceConfig("sensor-rollout", {
  deviceIds: sensors.map((s) => s.deviceId),
  properties: {
    reportInterval: config.getNumber("reportInterval") ?? 1800,
    ledEnabled: false,
    alarmThreshold: { high: 35, low: -5, enabled: true },
  },
  version: "2026.11",
  // Put the TSL defaults back when the rollout is removed.
  resetOnDelete: true,
});

/** deviceId → taskId of the configuration task that carries the rollout to each device. */
export const taskIds = rollout.taskIds;
