/**
 * The `DeviceConfig` resource: the configuration of one or many devices, validated against each
 * device's TSL model, written by PATCH (one device) or configuration tasks (several devices, or a
 * PROFILE template). Its id is derived from the device ids.
 */
import * as pulumi from "@pulumi/pulumi";
import { providerOfResource } from "./serialized-provider";

/** A configuration value: a scalar, a list, or a STRUCT as an object keyed by child id. */
export type ConfigValue = string | number | boolean | ConfigValue[] | { [childId: string]: ConfigValue };

/** The inputs of a {@link DeviceConfig}. Give `properties` or `profile`, not both. */
export interface DeviceConfigArgs {
  /**
   * The device or devices to configure: deviceIds, strings of digits (e.g. `device.deviceId`), or
   * a DeviceFleet's `deviceIds` (serial number → deviceId) to configure the whole fleet.
   * Changing the set updates in place: the new set is configured.
   */
  deviceIds:
    | pulumi.Input<string>
    | pulumi.Input<pulumi.Input<string>[]>
    | pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * TSL property id → value. Each property must be writable (accessMode `W` or `RW`) and its value
   * must fit the device's TSL model. A STRUCT is an object keyed by child id (`{ high: 30 }`, or by
   * full id `{ "alarmThreshold.high": 30 }`); a LONG beyond 2^53 is a string of digits.
   */
  properties?: pulumi.Input<Record<string, pulumi.Input<ConfigValue>>>;
  /** PROFILE template key → value, applied by configuration tasks. */
  profile?: pulumi.Input<Record<string, pulumi.Input<ConfigValue>>>;
  /** Config version carried by configuration tasks. */
  version?: pulumi.Input<string>;
  /**
   * On delete, write the TSL `defaultValue` of each managed writable property (default `false`:
   * the devices keep their configuration). Also applies to devices and properties dropped later.
   */
  resetOnDelete?: pulumi.Input<boolean>;
}

/** Device configuration by Update Device Properties Incrementally or Create Configuration Tasks. */
export class DeviceConfig extends pulumi.dynamic.Resource {
  /** The configured devices, as declared; `pending` names those the platform has not confirmed. */
  declare readonly deviceIds: pulumi.Output<string[]>;
  /** The properties applied (a PATCH the platform took only in part keeps what it took). */
  declare readonly properties: pulumi.Output<Record<string, ConfigValue> | undefined>;
  declare readonly profile: pulumi.Output<Record<string, ConfigValue> | undefined>;
  declare readonly version: pulumi.Output<string | undefined>;
  declare readonly resetOnDelete: pulumi.Output<boolean | undefined>;
  /** `patch` for one device with properties, `tasks` otherwise. */
  declare readonly method: pulumi.Output<"patch" | "tasks">;
  /** deviceId → taskId of the latest configuration task of each device (empty for `patch`). */
  declare readonly taskIds: pulumi.Output<Record<string, string>>;
  /**
   * deviceId → what the device is still owed after a task call that failed (`keys`), and for a call
   * whose answer was lost, `unknown` (when, what failed, whether a read can show it). Absent when the
   * platform confirmed everything; the next `pulumi up` sends it (see docs/guides/resources.md).
   */
  declare readonly pending: pulumi.Output<
    | Record<string, { keys: string[]; unknown?: { since: string; detail: string; visible: boolean } }>
    | undefined
  >;
  /**
   * The owner tag of the stack that last wrote this configuration: `resetOnDelete` resets the
   * devices carrying it even after a stack rename (absent outside a deployment).
   */
  declare readonly ownerMarker: pulumi.Output<string | undefined>;

  constructor(name: string, args: DeviceConfigArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      providerOfResource("DeviceConfig"),
      name,
      { method: undefined, taskIds: undefined, pending: undefined, ownerMarker: undefined, ...args },
      opts,
      "devplatform",
      "DeviceConfig",
    );
  }
}
