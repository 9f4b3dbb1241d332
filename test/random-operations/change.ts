/**
 * A change to what the main stack declares, as data: it prints, replays and shrinks (changes.ts
 * applies it to a world).
 */
import type { Front, SensorProperties } from "./world";

/** The kinds of resource a change names. */
export type ResourceKind = "device" | "fleet" | "rps" | "config";

/**
 * One change to what the main stack declares. `front` is the front-end of a resource the change
 * creates (absent in sequences printed before there were two: the dynamic resources).
 */
export type Change =
  | { kind: "add-device"; into: number; sn: number; name: number; front?: Front }
  | { kind: "remove-device"; pick: number }
  | { kind: "rename-device"; pick: number; name: number }
  | { kind: "retag"; pick: number; tags: string[] }
  | { kind: "reproject"; pick: number; project: string | null }
  | { kind: "move-sn"; pick: number; to: number; front?: Front }
  | { kind: "rename-resource"; resource: ResourceKind; pick: number; suffix: number }
  | { kind: "set-values"; pick: number; properties: SensorProperties }
  | { kind: "bump-version"; pick: number }
  | { kind: "split-config"; pick: number; suffix: number }
  | { kind: "merge-configs"; pick: number; with: number }
  | {
      kind: "add-config";
      targets: number[];
      properties: SensorProperties;
      resetOnDelete: boolean;
      suffix: number;
      front?: Front;
    }
  | { kind: "remove-config"; pick: number }
  | { kind: "add-rps"; sn: number; url: number; front?: Front }
  | { kind: "remove-rps"; pick: number }
  | { kind: "change-rps-url"; pick: number; url: number }
  /** A resource re-declared on the other front-end in one `up` (same name, same inputs). */
  | { kind: "move-front"; resource: ResourceKind; pick: number }
  /** The first `up` of a move split over two: the resource declared on the other front-end too. */
  | { kind: "twin"; resource: ResourceKind; pick: number }
  /**
   * The second `up`: of a resource declared on both front-ends (`pick` among those, of any kind),
   * one declaration removed, the old one (`keep: "new"`) or the new.
   */
  | { kind: "finish-move"; pick: number; keep: "new" | "old" }
  /** A serial number moved from a fleet to the fleet of the same name under another parent. */
  | { kind: "namesake-move"; pick: number }
  /** A fleet moved under another component parent (or to the root): a new URN, the same name. */
  | { kind: "reparent"; pick: number; parent: number }
  /**
   * A new fleet of one free serial number, named like an existing fleet (under another parent)
   * or afresh.
   */
  | { kind: "add-fleet"; name: number; parent: number; sn: number; front: Front }
  /** A fleet no longer declared: its devices are deleted. */
  | { kind: "remove-fleet"; pick: number };

/** A one-line description of a change, for the printed sequence. */
export function describeChange(change: Change): string {
  const { kind, ...rest } = change;
  return `${kind} ${JSON.stringify(rest)}`;
}
