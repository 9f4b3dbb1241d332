/**
 * What the harness believes between steps, and how a step moves it on: pure, so that the steps a
 * sequence runs (their preconditions) replay the same on the real CLI, in `--shrink`, and in tests
 * with a fake executor.
 */
import { applyChange } from "./changes";
import { applySecondChange } from "./platform-changes";
import { nextRegional } from "./regions";
import { applyStackAction, INITIAL_NAMES, type StackNames } from "./stack-names";
import type { Step } from "./steps";
import { declaredDevices, initialSecondWorld, initialWorld, type World } from "./world";

/** What the harness believes: both stacks' worlds and the deviceIds of the declared devices. */
export interface Model {
  main: World;
  second: World;
  /** Who the stacks are now: renamed, replaced, another owner-tag prefix (stack-names.ts). */
  names: StackNames;
  /** sn (upper case) → deviceId of every device declared after the last step. */
  ids: Map<string, string>;
  /** Steps run so far (skipped ones not counted). */
  steps: number;
  /** What each step did, for the report. */
  log: string[];
}

/** The model before step 0: both stacks' initial worlds. */
export function initialModel(): Model {
  return {
    main: initialWorld(),
    second: initialSecondWorld(),
    names: INITIAL_NAMES,
    ids: new Map(),
    steps: 0,
    log: [],
  };
}

/** A step failed an invariant: carries what a reproduction needs. */
export class StepFailure extends Error {
  constructor(
    readonly stepIndex: number,
    readonly violations: string[],
  ) {
    super(`step ${stepIndex}: ${violations.length} invariant(s) violated:\n  ${violations.join("\n  ")}`);
    this.name = "StepFailure";
  }
}

/** What a step leads to: both stacks' worlds, and who the stacks are. */
export interface NextWorlds {
  main: World;
  second: World;
  names: StackNames;
}

/**
 * The worlds step number `index` of its sequence (from 1) declares, or undefined when its
 * precondition fails. The main world's regional fleets follow the index (regions.ts).
 */
export function nextWorlds(model: Readonly<Model>, step: Step, index: number): NextWorlds | undefined {
  const regional = nextRegional(model.main, index);
  const names = model.names;
  if (step.kind === "out-of-band")
    return declaredDevices(model.main).length > 0
      ? { main: { ...model.main, regional }, second: model.second, names }
      : undefined;
  const main = applyChange(model.main, step.change);
  if (!main) return undefined;
  if (step.kind === "stack") {
    const next = applyStackAction(step.action, index, names, main, model.second);
    return next && { main: { ...main, regional }, ...next };
  }
  const second = step.kind === "concurrent" ? applySecondChange(model.second, step.second) : model.second;
  return { main: { ...main, regional }, second, names };
}
