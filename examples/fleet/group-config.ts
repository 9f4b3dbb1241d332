/**
 * Configuration per device group: TSL property id → value, validated against each device's TSL
 * model at preview, before anything is written.
 */
import type { ConfigValue } from "pulumi-devplatform";

export const GROUP_CONFIG: Record<string, Record<string, ConfigValue>> = {
  sensors: { reportInterval: 900, temperatureUnit: 0, alarmThreshold: { high: 28, low: 5 } },
  gateways: { apn: "iot.example.com", channelPlan: 0 },
  controllers: { mode: 3, schedule: [360, 1320] },
};
