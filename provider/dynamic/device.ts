/**
 * The `Device` resource: a device in the platform application, identified by its deviceId.
 */
import * as pulumi from "@pulumi/pulumi";
import { DEVICE_OUTPUTS } from "../device/outputs";
import { providerOfResource } from "./serialized-provider";

/** What describes one device on the platform: a Device's inputs, or one device of a DeviceFleet. */
export interface DeviceDeclaration {
  /**
   * Serial number or EUI (`snDevEUI` of Add a Device): 12–16 hex digits, compared without regard to
   * case. Changing it means another device.
   */
  sn: pulumi.Input<string>;
  /** Device name. */
  name: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  /**
   * Project tag, changed in place by Update a Device Information (the deviceId and the device's
   * configuration stay); removing it clears the device's project.
   */
  project?: pulumi.Input<string>;
  /** At most 20 unique, non-empty tags. */
  tags?: pulumi.Input<pulumi.Input<string>[]>;
  /** TSL model version to select for the device, set right after it is added. */
  tslVersion?: pulumi.Input<string>;
}

/** The inputs of a {@link Device}. */
export interface DeviceArgs extends DeviceDeclaration {
  /**
   * Before adding the device, delete its RPS record if there is one: the hand-over from RPS to
   * platform management in one `up`.
   */
  takeOverRps?: pulumi.Input<boolean>;
  /**
   * When the serial number is already in this application, adopt that device (default `true`,
   * so an interrupted `up` converges); `false` makes it an error naming the deviceId already there.
   */
  adoptExisting?: pulumi.Input<boolean>;
  /**
   * Take the device over from another stack whose owner tag it carries: without it, adopting (or
   * updating) a device another stack manages is refused, naming that stack.
   */
  takeOver?: pulumi.Input<boolean>;
}

/** A device on the platform, reconciled with Add / Update / Delete a Device. */
export class Device extends pulumi.dynamic.Resource {
  declare readonly sn: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | undefined>;
  declare readonly project: pulumi.Output<string | undefined>;
  declare readonly tags: pulumi.Output<string[] | undefined>;
  declare readonly tslVersion: pulumi.Output<string | undefined>;
  /**
   * The platform's id of the device: a string of digits. It is the resource's id, which the engine
   * keeps known in a preview that updates the device — so a DeviceConfig of this device can still
   * be validated when, say, the device's tags change in the same preview. (Outputs of an updated
   * dynamic resource are otherwise unknown in a preview: the engine ignores a dynamic provider's
   * `stables`.)
   */
  readonly deviceId: pulumi.Output<string>;
  declare readonly devEUI: pulumi.Output<string | undefined>;
  declare readonly imei: pulumi.Output<string | undefined>;
  declare readonly model: pulumi.Output<string | undefined>;
  declare readonly hardwareVersion: pulumi.Output<string | undefined>;
  declare readonly firmwareVersion: pulumi.Output<string | undefined>;
  /** `GATEWAY`, `SUB_DEVICE` or `COMMON`. */
  declare readonly deviceType: pulumi.Output<string | undefined>;
  /** `ONLINE`, `OFFLINE` or `DISCONNECT`; changes on its own and never produces a diff. */
  declare readonly connectStatus: pulumi.Output<string | undefined>;
  declare readonly licenseStatus: pulumi.Output<string | undefined>;
  /**
   * Auto-provisioning state: `SUCCESS` (the template given at add was applied), `WAITING` (not
   * yet), `DISABLE` (none). A status: it changes on its own and never produces a diff.
   */
  declare readonly autopStatus: pulumi.Output<string | undefined>;
  declare readonly rpsStatus: pulumi.Output<string | undefined>;
  declare readonly applicationId: pulumi.Output<string | undefined>;
  declare readonly applicationName: pulumi.Output<string | undefined>;
  declare readonly electricity: pulumi.Output<number | undefined>;
  /** Time of the device's most recent report, as the platform gives it. */
  declare readonly lastUpdateTime: pulumi.Output<number | undefined>;
  /** The owner tag the device carries, naming this stack (`pulumi-stack:<project>/<stack>`). */
  declare readonly ownerMarker: pulumi.Output<string | undefined>;

  constructor(name: string, args: DeviceArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = Object.fromEntries([...DEVICE_OUTPUTS, "ownerMarker"].map((key) => [key, undefined]));
    super(providerOfResource("Device"), name, { ...outputs, ...args }, opts, "devplatform", "Device");
    this.deviceId = this.id;
  }
}
