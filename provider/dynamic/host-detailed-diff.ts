/**
 * A dynamic DeviceFleet's detailed diff, handed to the engine.
 *
 * `@pulumi/pulumi` 3.259's dynamic provider host answers Diff with `changes`, `replaces` and
 * `deleteBeforeReplace` only: its `DiffResult` has no `detailedDiff`, and its server never sets
 * the response's `detailedDiff` or `hasDetailedDiff` (cmd/dynamic-provider/index.js). The engine
 * then shows a dynamic resource's change from its old and new inputs in full: `pulumi preview
 * --diff` of a fleet printed every entry, the unchanged ones too, and `pulumi preview --json`
 * gave the fleet `detailedDiff: null`. The host's response is a generated gRPC class, though, and
 * the host calls its `setChanges` right after the provider's `diff` returned, in the same request's
 * async context (where host-status.ts already notes the URN). So, in that host only, the fleet's
 * diff leaves its detail under the request's URN, and `setChanges` adds it to the response:
 * `entries["SN"]` added or removed, `entries["SN"].name` changed — the fleet's checked input is
 * `entries`, where the plugin's is `devices`. Anywhere else, or should the host's classes not be
 * where they are expected, nothing changes and the engine shows the inputs as before.
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import type { PropertyChange } from "../core/diff";
import { currentUrn } from "../deployment/request-urn";
import { hostPackage } from "./host-status";

type DetailedDiff = Readonly<Record<string, { kind: PropertyChange; inputDiff: boolean }>>;

/** What this file needs of the generated gRPC classes (loaded from the host's package). */
interface PropertyDiff {
  setKind(kind: number): void;
  setInputdiff(input: boolean): void;
}
interface DiffResponse {
  getDetaileddiffMap(): { set(key: string, value: PropertyDiff): unknown };
  setHasdetaileddiff(has: boolean): void;
}
interface ProviderProto {
  DiffResponse: { prototype: DiffResponse & { setChanges(value: number): unknown } };
  PropertyDiff: (new () => PropertyDiff) & { Kind: Record<PropertyChange, number> };
}

const pending = new Map<string, DetailedDiff>();
let installed: boolean | undefined;

/** Adds the pending detail of the request's resource to the host's DiffResponse, once. */
function install(): boolean {
  if (installed !== undefined) return installed;
  installed = false;
  const root = hostPackage();
  if (root === undefined) return false;
  try {
    const proto = createRequire(path.join(root, "package.json"))("./proto/provider_pb.js") as ProviderProto;
    const prototype = proto.DiffResponse.prototype;
    const setChanges = prototype.setChanges;
    if (typeof setChanges !== "function" || typeof prototype.setHasdetaileddiff !== "function") return false;
    prototype.setChanges = function (this: DiffResponse, value: number): unknown {
      const urn = currentUrn();
      const detail = urn === undefined ? undefined : pending.get(urn);
      if (urn !== undefined) pending.delete(urn);
      if (detail !== undefined) {
        const map = this.getDetaileddiffMap();
        for (const [key, { kind, inputDiff }] of Object.entries(detail)) {
          const diff = new proto.PropertyDiff();
          diff.setKind(proto.PropertyDiff.Kind[kind]);
          diff.setInputdiff(inputDiff);
          map.set(key, diff);
        }
        this.setHasdetaileddiff(true);
      }
      return setChanges.call(this, value);
    };
    installed = true;
  } catch {
    installed = false;
  }
  return installed;
}

/** A fleet's detailed diff with the dynamic checked input's name: `devices…` → `entries…`. */
export function dynamicFleetDetail(detailed: DetailedDiff): DetailedDiff {
  return Object.fromEntries(
    Object.entries(detailed).map(([key, value]) => [key.replace(/^devices(?=$|\[|\.)/, "entries"), value]),
  );
}

/** A batch's detailed diff with the dynamic checked input's name: `records…` → `entries…`. */
export function dynamicRpsFleetDetail(detailed: DetailedDiff): DetailedDiff {
  return Object.fromEntries(
    Object.entries(detailed).map(([key, value]) => [key.replace(/^records(?=$|\[|\.)/, "entries"), value]),
  );
}

/** Hands the engine `detailed` for the current request's resource (in the dynamic host only). */
export function offerDetailedDiff(detailed: DetailedDiff): void {
  const urn = currentUrn();
  if (urn === undefined || Object.keys(detailed).length === 0 || !install()) return;
  pending.set(urn, detailed);
}
