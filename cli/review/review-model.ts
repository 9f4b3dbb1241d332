/**
 * What the review of one stack says, before it is written as Markdown: the devices that change
 * (a fleet's entries and single Device resources alike), configuration changes (DeviceConfig and
 * RpsProfile), errors and warnings, and policy violations.
 */
import type { PolicyViolation, PreviewDiagnostic } from "./preview";
import type { RecordChange } from "./rps-batch-changes";

/**
 * What an `up` does to one device. `move`: one resource of the stack stops declaring it and another
 * starts (a fleet to another fleet, a Device to a fleet): the device stays, with its deviceId and
 * its configuration, and takes the new resource's values.
 */
export type DeviceAction = "add" | "update" | "remove" | "replace" | "move";

/** One property before and after. */
export interface FieldChange {
  readonly field: string;
  readonly before: unknown;
  readonly after: unknown;
}

/** One device that changes, by serial number. */
export interface DeviceChange {
  readonly sn: string;
  readonly action: DeviceAction;
  /** The resource declaring it: `fleet site-a`, `Device 240000A10003`. */
  readonly resource: string;
  /** The fields that change (updates and replacements). */
  readonly fields: readonly FieldChange[];
  /** A removal that leaves the device on the platform (a fleet's `onRemove: release`). */
  readonly release?: boolean;
  /** A move's resource that declared it before (`resource` declares it now). */
  readonly from?: string;
  /**
   * The device's fields as the resource declares them (an add) or as they are applied (a
   * removal): what a move's changes are found from. Never written into the comment as such.
   */
  readonly values?: Readonly<Record<string, unknown>>;
  /** The provider reference of the resource (its state before a removal, after an add). */
  readonly provider?: string;
}

/** A configuration resource (DeviceConfig, RpsProfile) that changes. */
export interface ConfigChange {
  /** `DeviceConfig site-a-reporting`, `RpsProfile rps-240000A10003`. */
  readonly resource: string;
  /** `create`, `update`, `delete`, `replace`. */
  readonly op: string;
  readonly fields: readonly FieldChange[];
  /**
   * Nothing of it changes but its device ids, which are known only at apply (they come from a fleet
   * that changes): its properties go to whichever devices the fleet has then.
   */
  readonly devicesAtApply?: boolean;
}

/** What one resource's step contributes. */
export interface ResourceChanges {
  readonly devices: readonly DeviceChange[];
  /** Devices this resource declares that stay as they are. */
  readonly unchanged: number;
  /** Remarks: a fleet whose devices are known only at apply. */
  readonly notes: readonly string[];
}

/** The review of one stack. */
export interface StackReview {
  readonly stack: string;
  readonly devices: readonly DeviceChange[];
  readonly unchanged: number;
  readonly configs: readonly ConfigChange[];
  /** The RPS records the stack's batches (RpsFleet) change, removals first. */
  readonly records?: readonly RecordChange[];
  readonly notes: readonly string[];
  /** Errors and warnings (never debug lines: they may print a resource's raw values). */
  readonly diagnostics: readonly PreviewDiagnostic[];
  readonly policies: readonly PolicyViolation[];
  /** Whether the preview failed (an error, or a non-zero exit code other than 7 for drift). */
  readonly failed: boolean;
}
