/**
 * The resources' API as the generated programs use it — the shape agreed for issue 13, written out
 * here because DeviceFleet is being implemented alongside. The typecheck test compiles generated
 * projects against this declaration.
 */
import * as pulumi from "@pulumi/pulumi";

export type ConfigValue = string | number | boolean | ConfigValue[] | { [key: string]: ConfigValue };

export interface FleetDevice {
  sn: string;
  name: string;
  description?: string;
  project?: string;
  tags?: string[];
  tslVersion?: string;
}

export interface DeviceFleetArgs {
  devices: pulumi.Input<pulumi.Input<FleetDevice>[]>;
  adoptExisting?: pulumi.Input<boolean>;
  takeOverRps?: pulumi.Input<boolean>;
  concurrency?: pulumi.Input<number>;
  onRemove?: pulumi.Input<"delete" | "release">;
  maxRemovals?: pulumi.Input<number>;
}

export declare class DeviceFleet extends pulumi.dynamic.Resource {
  readonly deviceIds: pulumi.Output<Record<string, string>>;
  constructor(name: string, args: DeviceFleetArgs, opts?: pulumi.CustomResourceOptions);
}

export interface DeviceArgs {
  sn: pulumi.Input<string>;
  name: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  project?: pulumi.Input<string>;
  tags?: pulumi.Input<pulumi.Input<string>[]>;
  tslVersion?: pulumi.Input<string>;
  takeOverRps?: pulumi.Input<boolean>;
  adoptExisting?: pulumi.Input<boolean>;
}

export declare class Device extends pulumi.dynamic.Resource {
  readonly deviceId: pulumi.Output<string>;
  constructor(name: string, args: DeviceArgs, opts?: pulumi.CustomResourceOptions);
}

export declare class RpsProfile extends pulumi.dynamic.Resource {
  constructor(
    name: string,
    args: { sn: pulumi.Input<string>; profileUrl: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  );
}

export interface DeviceConfigArgs {
  /** The strictest of the agreed shapes: a list of ids (a single id or a Record are also agreed). */
  deviceIds: pulumi.Input<string>[];
  properties?: pulumi.Input<Record<string, pulumi.Input<ConfigValue>>>;
}

export declare class DeviceConfig extends pulumi.dynamic.Resource {
  constructor(name: string, args: DeviceConfigArgs, opts?: pulumi.CustomResourceOptions);
}
