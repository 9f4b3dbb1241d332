/**
 * Diff: the kind's one diff (`kindDefinition(kind).diff`: per-property `detailedDiff`,
 * `replaces`, `stables`, `deleteBeforeReplace`) as the engine's DiffResponse.
 */
import type { KindDiff, PropertyChange } from "../../core/diff";
import { kindDefinition } from "../../kinds";
import { kindOf } from "./kinds";
import { fromStruct } from "./properties";
import { providerPb, type ProviderPb } from "./rpc";

/** Each resource's stables from its last diff: an update preview keeps those outputs known. */
const lastStables = new Map<string, readonly string[]>();

/** The stables of the resource's last diff in this process (none known: empty). */
export function stablesOf(urn: string): readonly string[] {
  return lastStables.get(urn) ?? [];
}

const KINDS: Readonly<Record<PropertyChange, ProviderPb.PropertyDiff.Kind>> = {
  ADD: providerPb.PropertyDiff.Kind.ADD,
  ADD_REPLACE: providerPb.PropertyDiff.Kind.ADD_REPLACE,
  DELETE: providerPb.PropertyDiff.Kind.DELETE,
  DELETE_REPLACE: providerPb.PropertyDiff.Kind.DELETE_REPLACE,
  UPDATE: providerPb.PropertyDiff.Kind.UPDATE,
  UPDATE_REPLACE: providerPb.PropertyDiff.Kind.UPDATE_REPLACE,
};

/** The top-level property of a path (`devices["240000A10003"].name` → `devices`). */
function topLevel(path: string): string {
  return /^[^.[]+/.exec(path)?.[0] ?? path;
}

/** A KindDiff as the engine's DiffResponse. */
export function diffResponse(diff: KindDiff): ProviderPb.DiffResponse {
  const response = new providerPb.DiffResponse();
  response.setChanges(
    diff.changes
      ? providerPb.DiffResponse.DiffChanges.DIFF_SOME
      : providerPb.DiffResponse.DiffChanges.DIFF_NONE,
  );
  response.setReplacesList([...diff.replaces]);
  response.setStablesList([...diff.stables]);
  response.setDeletebeforereplace(diff.deleteBeforeReplace);
  const paths = Object.keys(diff.detailedDiff);
  response.setDiffsList([...new Set([...paths.map(topLevel), ...diff.replaces])]);
  response.setHasdetaileddiff(true);
  for (const [path, change] of Object.entries(diff.detailedDiff)) {
    const property = new providerPb.PropertyDiff();
    property.setKind(KINDS[change.kind]);
    property.setInputdiff(change.inputDiff);
    response.getDetaileddiffMap().set(path, property);
  }
  return response;
}

/** Diff of the recorded state (`olds`) against the checked inputs (`news`). */
export async function diff(request: ProviderPb.DiffRequest): Promise<ProviderPb.DiffResponse> {
  const kind = kindOf({ type: request.getType(), urn: request.getUrn() });
  const result = await kindDefinition(kind).diff(
    request.getId(),
    fromStruct(request.getOlds()).values,
    fromStruct(request.getNews()).values,
  );
  lastStables.set(request.getUrn(), result.stables);
  return diffResponse(result);
}
