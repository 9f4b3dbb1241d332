/**
 * Adoption: taking over a device that is already in this application with the declared serial
 * number — a device made by hand, by an export, or by an `up` that was interrupted before the
 * engine recorded it. Adoption writes nothing when the platform already matches the declaration,
 * and refuses what it cannot reconcile in place (another project).
 */
import type { DevicePlatformClient, Device as PlatformDevice } from "../../sdk";
import { claimDevice, type Owner } from "../runtime/ownership";
import { ResourceOperationError } from "../shared/errors";
import { needsUpdate, platformDifferences, projectOf, updateBody, type DeclaredDevice } from "./desired";

/** What adopting a device did. */
export interface Adoption {
  readonly deviceId: string;
  /** Whether a PUT was sent (the platform differed, or a TSL version is declared). */
  readonly wrote: boolean;
  /** The fields that differed from the declaration. */
  readonly changed: string[];
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
 * Why an existing device cannot be adopted, or undefined when it can. The platform cannot change
 * a device's project in place, so a device in another project is never adopted silently.
 */
export function adoptionRefusal(
  existing: PlatformDevice,
  want: DeclaredDevice,
  options: Pick<AdoptionOptions, "adoptExisting" | "operation">,
): ResourceOperationError | undefined {
  const { deviceId } = existing;
  if (!options.adoptExisting) {
    return new ResourceOperationError(
      `${options.operation} failed: the serial number is already in this application as deviceId ${deviceId}; ` +
        "remove adoptExisting: false to adopt that device into this stack (dynamic resources cannot use the " +
        "import option), or delete it from the platform first",
    );
  }
  if (projectOf(existing) !== projectOf(want)) {
    const show = (project: string) => (project === "" ? "no project" : `project "${project}"`);
    return new ResourceOperationError(
      `${options.operation} failed: deviceId ${deviceId} with this serial number is already in this application ` +
        `in ${show(projectOf(existing))}, but it is declared in ${show(projectOf(want))}. The platform cannot move a ` +
        `device between projects, so it was not adopted: declare ${show(projectOf(existing))} for it, or delete ` +
        `deviceId ${deviceId} from the platform and run \`pulumi up\` again to add it in the declared project`,
    );
  }
  return undefined;
}

/**
 * Adopts `existing` for `want`: refuses what cannot be reconciled, records the claim, and sends one
 * PUT only when something differs (or a TSL version is declared, which the platform does not report).
 */
export async function adoptDevice(
  client: DevicePlatformClient,
  existing: PlatformDevice,
  want: DeclaredDevice,
  options: AdoptionOptions,
): Promise<Adoption> {
  const refusal = adoptionRefusal(existing, want, options);
  if (refusal) throw refusal;
  claimDevice(existing.deviceId, want.sn, options.owner);
  const changed = platformDifferences(existing, want);
  if (!needsUpdate(existing, want)) return { deviceId: existing.deviceId, wrote: false, changed };
  await client.updateDevice(updateBody(existing.deviceId, want));
  return { deviceId: existing.deviceId, wrote: true, changed };
}

/** `unchanged` or `updated name, tags`, for the adoption warning. */
export function describeAdoption(adoption: Adoption): string {
  if (!adoption.wrote) return "unchanged";
  return adoption.changed.length > 0 ? `updated ${adoption.changed.join(", ")}` : "TSL version set";
}
