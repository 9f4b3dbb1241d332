/**
 * A serial number is declared by one resource of the stack only: one Device, one DeviceFleet entry
 * or one RpsProfile (a device on the platform cannot have an RPS record, and two resources of one
 * device take it from each other at every `up`). A stack policy: it reads every resource's outputs,
 * which the engine gives it at preview too — the provider plugin answers a fleet's serial numbers
 * at preview, and a dynamic resource's preview outputs are its checked inputs.
 *
 * The provider refuses two Devices or fleets of one deployment declaring one device at its check;
 * this policy also covers RpsProfiles, and resources of other applications (another clientId).
 * A resource whose serial numbers are still unknown at preview is left out, not the whole policy.
 */
import type { StackValidationPolicy } from "@pulumi/policy";
import { declaredSerials, kindOfResource, nameOfUrn } from "../resources";

export const ONE_SERIAL_ONE_RESOURCE = "devplatform-one-serial-one-resource";

interface Declarer {
  readonly urn: string;
  readonly label: string;
}

/** One serial number, one resource, across the stack. */
export const oneSerialOneResource: StackValidationPolicy = {
  name: ONE_SERIAL_ONE_RESOURCE,
  description:
    "A serial number is declared by one Device, DeviceFleet entry or RpsProfile of the stack only.",
  enforcementLevel: "mandatory",
  validateStack: (args, reportViolation) => {
    const bySerial = new Map<string, { sn: string; declarers: Declarer[] }>();
    for (const resource of args.resources) {
      const kind = kindOfResource(resource);
      if (kind === undefined) continue;
      let serials: string[];
      try {
        serials = declaredSerials(kind, resource.props);
      } catch {
        // Unknown at preview (a computed serial number): this resource is checked at `up`.
        continue;
      }
      const label = `${kind} "${nameOfUrn(resource.urn)}"`;
      for (const sn of serials) {
        // As the platform compares serial numbers: whatever their case or compatibility spelling.
        const key = sn.normalize("NFKC").trim().toUpperCase();
        const found = bySerial.get(key) ?? { sn, declarers: [] };
        found.declarers.push({ urn: resource.urn, label });
        bySerial.set(key, found);
      }
    }
    for (const { sn, declarers } of bySerial.values()) {
      if (declarers.length < 2) continue;
      // By name, not by the engine's order (which varies from run to run): the message is stable.
      const sorted = [...declarers].sort(
        (x, y) => x.label.localeCompare(y.label) || x.urn.localeCompare(y.urn),
      );
      const [first, ...others] = sorted as [Declarer, ...Declarer[]];
      for (const other of others) {
        reportViolation(
          `serial number ${sn} is declared by ${other.label} and by ${first.label}; declare each device in one resource`,
          other.urn,
        );
      }
    }
  },
};
