/**
 * What the provider plugin's front-end needs from each resource kind beyond the implementation it
 * shares with the dynamic front-end (`provider/runtime/implementations.ts`): the per-property diff
 * a plugin can return, the read of an import (only an id), the inputs recorded after a refresh, and
 * the functions (`devplatform:index:getDevice`, …).
 */
import type { Inputs } from "../shared/input-checks";
import type { ResourceKind } from "../runtime/serialized-provider";

/** How one property (or a fleet's `devices["SN"].field`) changes; the engine's `PropertyDiff.Kind`. */
export type PropertyChange =
  "ADD" | "ADD_REPLACE" | "DELETE" | "DELETE_REPLACE" | "UPDATE" | "UPDATE_REPLACE";

/** A plugin Diff: exactly what changes, what forces a replacement, and which outputs stay known. */
export interface PluginDiff {
  /** Whether anything changes at all. */
  readonly changes: boolean;
  /** Top-level input names whose change replaces the resource. */
  readonly replaces: readonly string[];
  /** Output names that keep their value through the update (shown known in a preview). */
  readonly stables: readonly string[];
  readonly deleteBeforeReplace: boolean;
  /** Property paths (`name`, `tags[0]`, `devices["240000A10003"].name`) and how each changes. */
  readonly detailedDiff: Readonly<Record<string, { kind: PropertyChange; inputDiff: boolean }>>;
}

/** What an import's Read answers: the resource's id, its outputs, and inputs that pass Check. */
export interface ImportedResource {
  readonly id: string;
  readonly inputs: Inputs;
  readonly outputs: Inputs;
}

/** One kind's plugin-only behaviour, on top of its shared implementation. */
export interface KindExtensions {
  /** The plugin's diff of the recorded state (`olds`, outputs) against the checked inputs (`news`). */
  diff(id: string, olds: Inputs, news: Inputs): Promise<PluginDiff>;
  /**
   * Reads a resource to import from the id the user gave (`pulumi import … ID`); `name` is the
   * resource's name (the URN's), which a DeviceFleet takes as its id.
   */
  importRead(id: string, name?: string): Promise<ImportedResource>;
  /** The declared inputs within a recorded state (what a refresh's Read answers as `inputs`). */
  inputsOf(state: Inputs): Inputs;
}

/** A function of the package (`devplatform:index:<name>`). */
export interface PluginFunction {
  /** Validates `args` (a failure names the argument and the rule) and answers the function's result. */
  invoke(args: Inputs): Promise<Inputs>;
}

/** The plugin's view of every kind, by the kind's name. */
export type KindExtensionTable = Readonly<Record<ResourceKind, KindExtensions>>;
