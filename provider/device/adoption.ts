/**
 * Adoption: taking over a device that is already in this application with the declared serial
 * number — a device made by hand, by an export, or by an `up` that was interrupted before the
 * engine recorded it. Adoption writes nothing when the platform already matches the declaration,
 * and otherwise sends one PUT of the whole declared state — a device tagged with another project
 * is retagged (a project is a tag, changed in place), and the new project confirmed.
 */
import type { DevicePlatformClient, Device as PlatformDevice } from "../../sdk";
import { claimDevice, type Owner } from "../runtime/ownership";
import { ResourceOperationError } from "../shared/errors";
import { needsUpdate, platformDifferences, projectOf, updateBody, type DeclaredDevice } from "./desired";
import { changesProject, confirmProject, showProject } from "./project-tag";

/** What adopting a device did. */
export interface Adoption {
  readonly deviceId: string;
  /** Whether a PUT was sent (the platform differed, or a TSL version is declared). */
  readonly wrote: boolean;
  /** The fields that differed from the declaration. */
  readonly changed: string[];
  /** The device as read after a PUT that changed its project (to confirm it). */
  readonly device?: PlatformDevice;
  /** The project the device had before a PUT retagged it ("" for none). */
  readonly retaggedFrom?: string;
}

/** Settings of an adoption. */
export interface AdoptionOptions {
  /** `false` makes an existing device an error instead (the `adoptExisting` input). */
  readonly adoptExisting: boolean;
  /** Who adopts, for the one-owner record. */
  readonly owner: Owner;
  /** How messages name the operation, e.g. `create Device sn=240000A10001`. */
  readonly operation: string;
}

/**
 * Why an existing device cannot be adopted, or undefined when it can: only `adoptExisting: false`
 * refuses. A device in another project is adopted and retagged (see {@link adoptDevice}).
 */
export function adoptionRefusal(
  existing: PlatformDevice,
  options: Pick<AdoptionOptions, "adoptExisting" | "operation">,
): ResourceOperationError | undefined {
  if (options.adoptExisting) return undefined;
  return new ResourceOperationError(
    `${options.operation} failed: the serial number is already in this application as deviceId ${existing.deviceId}; ` +
      "remove adoptExisting: false to adopt that device into this stack (dynamic resources cannot use the " +
      "import option), or delete it from the platform first",
  );
}

/**
 * Adopts `existing` for `want`: refuses what the settings forbid, records the claim, and sends one
 * PUT only when something differs (or a TSL version is declared, which the platform does not
 * report). A PUT that changes the project is confirmed (see {@link confirmProject}); a project not
 * applied throws {@link ProjectNotAppliedError}, which carries the device as read.
 */
export async function adoptDevice(
  client: DevicePlatformClient,
  existing: PlatformDevice,
  want: DeclaredDevice,
  options: AdoptionOptions,
): Promise<Adoption> {
  const refusal = adoptionRefusal(existing, options);
  if (refusal) throw refusal;
  const { deviceId } = existing;
  claimDevice(deviceId, want.sn, options.owner);
  const changed = platformDifferences(existing, want);
  if (!needsUpdate(existing, want)) return { deviceId, wrote: false, changed };
  const answer = await client.updateDevice(updateBody(deviceId, want));
  if (!changesProject(existing, want)) return { deviceId, wrote: true, changed };
  const device = await confirmProject(client, deviceId, answer, want, options.operation);
  return { deviceId, wrote: true, changed, retaggedFrom: projectOf(existing), ...(device ? { device } : {}) };
}

/** `unchanged`, `updated name, tags`, or `updated project; retagged from project "a" to project "b"`. */
export function describeAdoption(adoption: Adoption, want: DeclaredDevice): string {
  if (!adoption.wrote) return "unchanged";
  const updated = adoption.changed.length > 0 ? `updated ${adoption.changed.join(", ")}` : "TSL version set";
  if (adoption.retaggedFrom === undefined) return updated;
  return `${updated}; retagged from ${showProject(adoption.retaggedFrom)} to ${showProject(projectOf(want))}`;
}
