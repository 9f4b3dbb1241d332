/**
 * One step as a fast-check command: its precondition is that its change applies to the model's
 * world; running it writes the new world, runs the step's `up` under its circumstances, at most two
 * converging `up --refresh`, then checks every invariant and throws, naming the step, on a violation.
 */
import type fc from "fast-check";
import { applyChange } from "./changes";
import { platformIds } from "./invariants";
import { checkStep } from "./step-checks";
import { applySecondChange, outOfBand } from "./platform-changes";
import { writeWorld } from "./program";
import { concurrentUps, counted, killedUp, upUnderFaults, type Stacks } from "./stacks";
import { describeStep, type Step } from "./steps";
import { declaredDevices, type World } from "./world";

/** What the harness believes: both stacks' worlds and the deviceIds of the declared devices. */
export interface Model {
  main: World;
  second: World;
  /** sn (upper case) → deviceId of every device declared after the last step. */
  ids: Map<string, string>;
  /** Steps run so far (skipped ones not counted). */
  steps: number;
  /** What each step did, for the report. */
  log: string[];
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

/** The worlds a step declares, or undefined when its precondition fails. */
export function nextWorlds(model: Model, step: Step): { main: World; second: World } | undefined {
  if (step.kind === "out-of-band") return declaredDevices(model.main).length > 0 ? model : undefined;
  const main = applyChange(model.main, step.change);
  if (!main) return undefined;
  const second = step.kind === "concurrent" ? applySecondChange(model.second, step.second) : model.second;
  return { main, second };
}

export class StepCommand implements fc.AsyncCommand<Model, Stacks> {
  constructor(
    readonly step: Step,
    /** Index of the step in its sequence (for the report). */
    readonly index: number,
  ) {}

  check(model: Readonly<Model>): boolean {
    return nextWorlds(model as Model, this.step) !== undefined;
  }

  async run(model: Model, stacks: Stacks): Promise<void> {
    const worlds = nextWorlds(model, this.step);
    if (!worlds) throw new Error(`step ${this.index} ran although its precondition fails`);
    writeWorld(stacks.main.dir, worlds.main);
    writeWorld(stacks.second.dir, worlds.second);
    const { note, exempt, secondRan } = await this.runUp(model, stacks);
    const failedUps = await converge(stacks, note.failed);
    const violations = failedUps;
    model.main = worlds.main;
    model.second = worlds.second;
    model.steps += 1;
    model.log.push(`#${this.index} ${describeStep(this.step)} — ${note.text}`);
    if (violations.length === 0) violations.push(...(await checkStep(stacks, model, exempt, secondRan)));
    const state = await stacks.control.state();
    const ids = platformIds(state);
    const declared = [...declaredDevices(model.main), ...declaredDevices(model.second)];
    model.ids = new Map(
      declared.flatMap(({ decl }) => {
        const id = ids.get(decl.sn.toUpperCase());
        return id ? [[decl.sn.toUpperCase(), id] as [string, string]] : [];
      }),
    );
    if (violations.length > 0) throw new StepFailure(this.index, violations);
  }

  /** The step's own `up`, under its circumstances. */
  private async runUp(
    model: Model,
    stacks: Stacks,
  ): Promise<{ note: { text: string; failed: boolean }; exempt: Set<string>; secondRan: boolean }> {
    const step = this.step;
    const exempt = new Set<string>();
    switch (step.kind) {
      case "plain": {
        const up = await counted(stacks, () => stacks.main.up());
        return {
          note: { text: `up exit ${up.exitCode}`, failed: up.exitCode !== 0 },
          exempt,
          secondRan: false,
        };
      }
      case "faults": {
        const up = await upUnderFaults(stacks, step.seed, step.rate);
        return {
          note: { text: `faulted up exit ${up.exitCode}`, failed: up.exitCode !== 0 },
          exempt,
          secondRan: false,
        };
      }
      case "kill": {
        const { result, killed } = await killedUp(stacks, step);
        const text = killed ? "killed at the hold" : `not killed (hold not reached), exit ${result.exitCode}`;
        return { note: { text, failed: killed || result.exitCode !== 0 }, exempt, secondRan: false };
      }
      case "concurrent": {
        const { main, second } = await concurrentUps(stacks);
        const failed = main.exitCode !== 0 || second.exitCode !== 0;
        if (second.exitCode !== 0) {
          const again = await counted(stacks, () => stacks.second.up());
          if (again.exitCode !== 0)
            throw new StepFailure(this.index, [`converge: second stack:\n${again.output}`]);
        }
        return {
          note: { text: `ups exit ${main.exitCode}/${second.exitCode}`, failed },
          exempt,
          secondRan: true,
        };
      }
      case "out-of-band": {
        const text = await outOfBand(stacks.control, model, step, exempt);
        const up = await counted(stacks, () => stacks.main.upWithRefresh());
        return {
          note: { text: `${text}; up --refresh exit ${up.exitCode}`, failed: up.exitCode !== 0 },
          exempt,
          secondRan: false,
        };
      }
    }
  }

  toString(): string {
    return `#${this.index} ${describeStep(this.step)}`;
  }
}

/** Runs `up --refresh` until one succeeds, at most twice; a violation when none does. */
async function converge(stacks: Stacks, needed: boolean): Promise<string[]> {
  if (!needed) return [];
  let output = "";
  for (let attempt = 1; attempt <= 2; attempt++) {
    const up = await counted(stacks, () => stacks.main.upWithRefresh());
    if (up.exitCode === 0) return [];
    output = up.output;
  }
  return [`converge: 2 converging up --refresh failed; the last said:\n${output.slice(-3000)}`];
}
