/**
 * The `DeviceFleet` resource: many devices as one engine resource, for fleets of thousands. Its id
 * is the fleet's name.
 */
import * as pulumi from "@pulumi/pulumi";
import type { DeviceDeclaration } from "./device";
import { providerOfResource } from "./serialized-provider";
import type { FleetDeviceInfo } from "../device-fleet/state";

export type { FleetDeviceInfo } from "../device-fleet/state";

/** One device of a fleet: the inputs of a Device, without its per-device options. */
export type DeviceFleetDevice = DeviceDeclaration;

/** The inputs of a {@link DeviceFleet}. */
export interface DeviceFleetArgs {
  /** The devices of the fleet. */
  devices: pulumi.Input<pulumi.Input<DeviceFleetDevice>[]>;
  /** Adopt devices already in the application with a declared serial number (default `true`). */
  adoptExisting?: pulumi.Input<boolean>;
  /** Before adding a device, delete its RPS record if there is one. */
  takeOverRps?: pulumi.Input<boolean>;
  /** Platform requests in flight at once for this fleet (default 16, at most 64). */
  concurrency?: pulumi.Input<number>;
  /**
   * What removing a device from `devices` (or the fleet itself) does: `delete` it from the platform
   * (default), or `release` it — stop managing it and leave it on the platform.
   */
  onRemove?: pulumi.Input<"delete" | "release">;
  /**
   * An update that would remove more devices than this fails at preview, naming the count: a guard
   * against a truncated inventory file.
   */
  maxRemovals?: pulumi.Input<number>;
  /**
   * Serial numbers this fleet may take over from another stack: a device whose owner tag names
   * another stack is refused, naming that stack, unless listed here.
   */
  takeOver?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Stacks (`"<project>/<stack>"`) whose every device this fleet may take over: a lost stack's
   * whole fleet in one line.
   */
  takeOverFrom?: pulumi.Input<pulumi.Input<string>[]>;
}

/** Many devices, reconciled by serial number with the platform's per-device operations, in parallel. */
export class DeviceFleet extends pulumi.dynamic.Resource {
  /** Serial number (as declared) → deviceId, a string of digits. Feeds a DeviceConfig directly. */
  declare readonly deviceIds: pulumi.Output<Record<string, string>>;
  /** Serial number → what the platform reports that does not change on its own. */
  declare readonly devices: pulumi.Output<Record<string, FleetDeviceInfo>>;
  /** The owner tag the fleet's devices carry, naming this stack (`pulumi-stack:<project>/<stack>`). */
  declare readonly ownerMarker: pulumi.Output<string | undefined>;

  constructor(name: string, args: DeviceFleetArgs, opts?: pulumi.CustomResourceOptions) {
    // The fleet's name travels as an input: dynamic providers are not told the resource's name,
    // and the fleet's messages, its id and the one-owner record need it. The devices travel as one
    // JSON string: the SDK serializes, and the engine marshals and logs, every value of an input one
    // by one, which for 10,000 entries costs seconds on every preview; the provider's check turns
    // the string back into entries keyed by serial number.
    const devices = pulumi.output(args.devices).apply((list) => JSON.stringify(list));
    super(
      providerOfResource("DeviceFleet"),
      name,
      { deviceIds: undefined, ...args, devices, fleetName: name },
      opts,
      "devplatform",
      "DeviceFleet",
    );
  }
}
