/**
 * Adoption: taking over a device that is already in this application with the declared serial
 * number — a device made by hand, by an export, or by an `up` that was interrupted before the
 * engine recorded it. Adoption writes nothing when the platform already matches the declaration,
 * and otherwise sends one PUT of the whole declared state — a device tagged with another project
 * is retagged (a project is a tag, changed in place), and the new project confirmed.
 */
import type { DevicePlatformClient, Device as PlatformDevice } from "../../sdk";
import { claimDevice, type Owner } from "../guardrails/ownership";
import { ResourceOperationError } from "../shared/errors";
import { adoptionOwnerIn, namesakeNote, otherOwnerIn } from "../shared/owner-marker";
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
  /** The stack (`<project>/<stack>`) whose owner marker the device carried, when taken over from it. */
  readonly takenFrom?: string;
}

/** Settings of an adoption. */
export interface AdoptionOptions {
  /** `false` makes an existing device an error instead (the `adoptExisting` input). */
  readonly adoptExisting: boolean;
  /** Who adopts, for the one-owner record. */
  readonly owner: Owner;
  /** How messages name the operation, e.g. `create Device sn=240000A10001`. */
  readonly operation: string;
  /** This stack's owner marker (undefined outside a deployment: no marker written nor enforced). */
  readonly marker?: string;
  /** Whether the program takes the device over from another stack that owns it. */
  readonly takeOver?: boolean;
  /** How the program says it takes a device over, for the refusal: `set takeOver: true`. */
  readonly takeOverHint?: string;
}

/** The error that refuses adopting a device another stack's owner marker names. */
export class OwnedElsewhereError extends ResourceOperationError {
  constructor(message: string) {
    super(message, { code: "owned_by_another_stack" });
    this.name = "OwnedElsewhereError";
  }
}

/**
 * Why an existing device cannot be adopted, or undefined when it can: `adoptExisting: false`, or
 * the owner marker of another stack without the program's take-over. A device in another project
 * is adopted and retagged (see {@link adoptDevice}).
 */
export function adoptionRefusal(
  existing: PlatformDevice,
  options: Pick<AdoptionOptions, "adoptExisting" | "operation" | "marker" | "takeOver" | "takeOverHint">,
): ResourceOperationError | undefined {
  const owner = options.marker === undefined ? undefined : adoptionOwnerIn(existing.tag, options.marker);
  if (owner !== undefined && options.takeOver !== true) {
    return new OwnedElsewhereError(
      `${options.operation} failed: deviceId ${existing.deviceId} with this serial number is managed by stack ` +
        `"${owner}" (its owner tag says so${namesakeNote(owner, options.marker as string)}); nothing was written. Remove the device from this program, remove it ` +
        `from that stack's program first, or ${options.takeOverHint ?? "set takeOver: true"} to move it to this stack`,
    );
  }
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
  const { marker } = options;
  if (!needsUpdate(existing, want, marker)) return { deviceId, wrote: false, changed };
  const takenFrom = marker === undefined ? undefined : otherOwnerIn(existing.tag, marker);
  const taken = takenFrom === undefined ? {} : { takenFrom };
  const answer = await client.updateDevice(updateBody(deviceId, want, marker));
  if (!changesProject(existing, want)) return { deviceId, wrote: true, changed, ...taken };
  const device = await confirmProject(client, deviceId, answer, want, options.operation);
  return {
    deviceId,
    wrote: true,
    changed,
    retaggedFrom: projectOf(existing),
    ...taken,
    ...(device ? { device } : {}),
  };
}

/** `unchanged`, `updated name, tags`, or `updated project; retagged from project "a" to project "b"`. */
export function describeAdoption(adoption: Adoption, want: DeclaredDevice): string {
  if (!adoption.wrote) return "unchanged";
  const updated =
    adoption.changed.length > 0
      ? `updated ${adoption.changed.join(", ")}`
      : want.tslVersion !== undefined
        ? "TSL version set"
        : "owner tag written";
  const taken = adoption.takenFrom === undefined ? "" : `; taken over from stack "${adoption.takenFrom}"`;
  if (adoption.retaggedFrom === undefined) return updated + taken;
  return `${updated}; retagged from ${showProject(adoption.retaggedFrom)} to ${showProject(projectOf(want))}${taken}`;
}
