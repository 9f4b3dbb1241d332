/**
 * One step as a fast-check command: its precondition is that its change applies to the model's
 * world; running it hands the step to the executor (the real CLI, or a test's fake), then moves the
 * model on to the step's worlds and throws, naming the step, on a violation.
 */
import type fc from "fast-check";
import { nextWorlds, StepFailure, type Model, type NextWorlds } from "./model";
import { describeStep, type Step } from "./steps";

/** What a step did, as the executor reports it. */
export interface StepOutcome {
  /** What happened, for the log (exit codes, what was killed or changed out of band). */
  note: string;
  /** The invariants it broke, one line each, named by invariant; empty when it kept them. */
  violations: string[];
  /** sn (upper case) → deviceId of the devices the worlds declare, on the platform after the step. */
  ids: Map<string, string>;
}

/** Runs steps for real: the harness's CLI executor, or a fake in the harness's own tests. */
export interface StepExecutor {
  /** Deploys the model's initial worlds on fresh stacks and checks them (step 0). */
  start(model: Readonly<Model>): Promise<StepOutcome>;
  /**
   * Runs `step` (number `index` of its sequence) from the model's worlds to `worlds` and checks
   * every invariant against the model with `worlds` in it.
   */
  run(step: Step, index: number, model: Readonly<Model>, worlds: NextWorlds): Promise<StepOutcome>;
  /** CLI commands run so far. */
  readonly commands: number;
}

export class StepCommand implements fc.AsyncCommand<Model, StepExecutor> {
  constructor(
    readonly step: Step,
    /** Index of the step in its sequence, from 1 (for the report and the replay command). */
    readonly index: number,
  ) {}

  check(model: Readonly<Model>): boolean {
    return nextWorlds(model, this.step, this.index) !== undefined;
  }

  async run(model: Model, executor: StepExecutor): Promise<void> {
    const worlds = nextWorlds(model, this.step, this.index);
    if (!worlds) throw new Error(`step ${this.index} ran although its precondition fails`);
    const outcome = await executor.run(this.step, this.index, model, worlds);
    model.main = worlds.main;
    model.second = worlds.second;
    model.names = worlds.names;
    model.ids = outcome.ids;
    model.steps += 1;
    model.log.push(`#${this.index} ${describeStep(this.step)} — ${outcome.note}`);
    if (outcome.violations.length > 0) throw new StepFailure(this.index, outcome.violations);
  }

  toString(): string {
    return `#${this.index} ${describeStep(this.step)}`;
  }
}
