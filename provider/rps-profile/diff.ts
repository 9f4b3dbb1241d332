/**
 * The RpsProfile's diff, for both front-ends from one comparison: a serial number changed (without
 * regard to case) replaces the record, a profile URL changed updates it in place.
 */
import { sameSerial } from "../shared/serial-numbers";
import type { Inputs } from "../shared/input-checks";
import type { KindDiff } from "../core/diff";
import { changeKind, inputChange } from "../core/diff";

/** How an RpsProfile's declaration changes. */
export interface RpsProfileComparison {
  readonly replaces: string[];
  readonly updates: string[];
}

/** Compares the recorded state with the checked inputs. */
export function compareRpsProfile(olds: Inputs, news: Inputs): RpsProfileComparison {
  // One record per serial number whatever its case, as the platform compares them.
  const replaces = sameSerial(olds.sn as string, news.sn as string) ? [] : ["sn"];
  const updates = olds.profileUrl !== news.profileUrl ? ["profileUrl"] : [];
  return { replaces, updates };
}

/** The RpsProfile's one diff (the dynamic front-end answers its changes and replaces). */
export function rpsProfileDiff(olds: Inputs, news: Inputs): KindDiff {
  const { replaces, updates } = compareRpsProfile(olds, news);
  return {
    changes: replaces.length + updates.length > 0,
    replaces,
    stables: replaces.length > 0 ? [] : ["sn"],
    deleteBeforeReplace: false,
    detailedDiff: Object.fromEntries([
      ...replaces.map((key) => [key, inputChange(changeKind(olds[key], news[key], true))] as const),
      ...updates.map((key) => [key, inputChange(changeKind(olds[key], news[key]))] as const),
    ]),
  };
}
