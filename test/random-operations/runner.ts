/**
 * Runs a sequence of steps as a fast-check model run (`fc.asyncModelRun`) on fresh stacks against a
 * reset emulator: first both stacks' initial worlds, checked like a step (step 0), then each step
 * whose precondition holds. A failure carries its seed, the step index and the sequence that led
 * to it; `shrinkFailure` then looks for a shorter sequence that still fails (each try is a full
 * replay on the real CLI, so it is bounded).
 */
import fc from "fast-check";
import type { EmulatorControl } from "../../emulator";
import type { PulumiContext } from "../e2e/support/pulumi-project";
import { checkStep, settledState } from "./step-checks";
import { nextWorlds, StepCommand, StepFailure, type Model } from "./step-command";
import { platformIds } from "./invariants";
import { concurrentUps, createStacks, type Stacks } from "./stacks";
import { describeStep, type Step } from "./steps";
import { initialSecondWorld, initialWorld } from "./world";

export interface RunOutcome {
  /** Steps whose precondition held and that ran (step 0, the initial worlds, not counted). */
  stepsRun: number;
  skipped: number;
  /** CLI commands run. */
  commands: number;
  seconds: number;
  log: string[];
  failure?: { stepIndex: number; violations: string[]; sequence: Step[] };
}

/**
 * Resets the emulator, creates fresh stacks and deploys the initial worlds (step 0); throws a
 * StepFailure when they do not hold the invariants.
 */
export async function deployInitial(
  context: PulumiContext,
  control: EmulatorControl,
): Promise<{ stacks: Stacks; model: Model }> {
  await control.reset();
  const stacks = await createStacks(context, control, initialWorld(), initialSecondWorld());
  return { stacks, model: await setup(stacks) };
}

/** The initial worlds deployed and checked; returns the model the steps start from. */
async function setup(stacks: Stacks): Promise<Model> {
  const model: Model = {
    main: initialWorld(),
    second: initialSecondWorld(),
    ids: new Map(),
    steps: 0,
    log: [],
  };
  const { main, second } = await concurrentUps(stacks);
  const violations: string[] = [];
  if (main.exitCode !== 0)
    violations.push(`initial up of the main stack failed:\n${main.output.slice(-2500)}`);
  if (second.exitCode !== 0)
    violations.push(`initial up of the second stack failed:\n${second.output.slice(-2500)}`);
  if (violations.length === 0) violations.push(...(await checkStep(stacks, model, new Set(), true)));
  if (violations.length > 0) throw new StepFailure(0, violations);
  model.ids = platformIds(await settledState(stacks.control));
  model.log.push("#0 initial worlds — ok");
  return model;
}

/** Runs `steps` on fresh stacks; never throws for an invariant, it reports it. */
export async function runSequence(
  steps: readonly Step[],
  context: PulumiContext,
  control: EmulatorControl,
  onStep: (line: string) => void = () => {},
): Promise<RunOutcome> {
  const started = performance.now();
  await control.reset();
  const stacks = await createStacks(context, control, initialWorld(), initialSecondWorld());
  const commands = steps.map((step, index) => new StepCommand(step, index + 1));
  let model: Model | undefined;
  const ran: Step[] = [];
  let skipped = 0;
  const outcome = (failure?: RunOutcome["failure"]): RunOutcome => ({
    stepsRun: model?.steps ?? 0,
    skipped,
    commands: stacks.commands,
    seconds: (performance.now() - started) / 1000,
    log: model?.log ?? [],
    failure,
  });
  try {
    model = await setup(stacks);
    onStep("#0 initial worlds — ok");
    const logged = commands.map((command) => ({
      check: (m: Readonly<Model>) => {
        const applies = command.check(m);
        if (!applies) skipped += 1;
        return applies;
      },
      run: async (m: Model, real: Stacks) => {
        ran.push(command.step);
        await command.run(m, real);
        onStep(m.log[m.log.length - 1] ?? "");
      },
      toString: () => command.toString(),
    }));
    const current = model;
    await fc.asyncModelRun(() => ({ model: current, real: stacks }), logged);
    return outcome();
  } catch (error) {
    if (!(error instanceof StepFailure)) throw error;
    return outcome({ stepIndex: error.stepIndex, violations: error.violations, sequence: [...ran] });
  }
}

/** The steps of a sequence that would run on the initial worlds (preconditions replayed on the model). */
export function applicable(steps: readonly Step[]): Step[] {
  let model: Model = {
    main: initialWorld(),
    second: initialSecondWorld(),
    ids: new Map(),
    steps: 0,
    log: [],
  };
  const kept: Step[] = [];
  for (const step of steps) {
    const worlds = nextWorlds(model, step);
    if (!worlds) continue;
    model = { ...model, ...worlds };
    kept.push(step);
  }
  return kept;
}

const invariantOf = (violation: string): string => violation.slice(0, violation.indexOf(":"));

/**
 * Delta debugging over the failing sequence: drops chunks (halves, quarters, … single steps) while
 * the shorter sequence still fails one of the same invariants, within `maxReplays` full replays.
 */
export async function shrinkFailure(
  failing: readonly Step[],
  violations: readonly string[],
  context: PulumiContext,
  control: EmulatorControl,
  maxReplays: number,
  onTry: (line: string) => void = () => {},
): Promise<{ sequence: Step[]; replays: number; violations: string[] }> {
  const wanted = new Set(violations.map(invariantOf));
  let best = { sequence: [...failing], violations: [...violations] };
  let replays = 0;
  let chunk = Math.max(1, Math.floor(best.sequence.length / 2));
  while (replays < maxReplays) {
    let reduced = false;
    for (let start = 0; start < best.sequence.length && replays < maxReplays; start += chunk) {
      const candidate = applicable([...best.sequence.slice(0, start), ...best.sequence.slice(start + chunk)]);
      if (candidate.length === best.sequence.length) continue;
      replays += 1;
      const result = await runSequence(candidate, context, control);
      const same = result.failure?.violations.filter((v) => wanted.has(invariantOf(v))) ?? [];
      onTry(
        `shrink try ${replays}: ${candidate.length} steps → ${same.length > 0 ? "still fails" : "passes"}`,
      );
      if (result.failure && same.length > 0) {
        best = { sequence: result.failure.sequence, violations: result.failure.violations };
        reduced = true;
        break;
      }
    }
    if (!reduced) {
      if (chunk === 1) break;
      chunk = Math.max(1, Math.floor(chunk / 2));
    }
  }
  return { ...best, replays };
}

/** The report of a failure: seed, step, violations and the sequence, one step a line. */
export function describeFailure(seed: number, failure: NonNullable<RunOutcome["failure"]>): string {
  return [
    `random-operations seed ${seed}: step ${failure.stepIndex} failed`,
    ...failure.violations.map((v) => `  ✗ ${v}`),
    `sequence (${failure.sequence.length} steps run; replay: npm run soak -- --seed ${seed} --steps ${failure.stepIndex}):`,
    ...failure.sequence.map((step, i) => `  ${i + 1}. ${describeStep(step)}`),
    `as JSON (npm run soak -- --sequence FILE): ${JSON.stringify(failure.sequence)}`,
  ].join("\n");
}
