/**
 * Runs a sequence of steps as a fast-check model run (`fc.asyncModelRun`) with an executor (the
 * real CLI on fresh stacks against a reset emulator; a fake in the harness's own tests): first both
 * stacks' initial worlds, checked like a step (step 0), then each step whose precondition holds. A
 * failure carries the step's index in its sequence and the steps that ran up to it;
 * `shrinkFailure` then looks for a shorter sequence that still fails (each try is a full replay, so
 * it is bounded).
 */
import fc from "fast-check";
import { initialModel, nextWorlds, StepFailure, type Model } from "./model";
import { StepCommand, type StepExecutor } from "./step-command";
import { describeStep, type Step } from "./steps";
import { sequenceJson } from "./sequence-file";

export interface RunOutcome {
  /** Steps whose precondition held and that ran (step 0, the initial worlds, not counted). */
  stepsRun: number;
  skipped: number;
  /** CLI commands run. */
  commands: number;
  seconds: number;
  log: string[];
  failure?: {
    /** The failing step's index in the sequence run (from 1; 0 for the initial worlds). */
    stepIndex: number;
    violations: string[];
    /** The steps that ran, the failing one last. */
    sequence: Step[];
  };
}

/** Runs `steps` with a fresh executor; never throws for an invariant, it reports it. */
export async function runSequence(
  steps: readonly Step[],
  executor: StepExecutor,
  onStep: (line: string) => void = () => {},
): Promise<RunOutcome> {
  const started = performance.now();
  const model = initialModel();
  const ran: Step[] = [];
  let skipped = 0;
  const outcome = (failure?: RunOutcome["failure"]): RunOutcome => ({
    stepsRun: model.steps,
    skipped,
    commands: executor.commands,
    seconds: (performance.now() - started) / 1000,
    log: model.log,
    ...(failure ? { failure } : {}),
  });
  try {
    const initial = await executor.start(model);
    if (initial.violations.length > 0) throw new StepFailure(0, initial.violations);
    model.ids = initial.ids;
    model.log.push("#0 initial worlds — ok");
    onStep("#0 initial worlds — ok");
    const commands = steps.map((step, index) => {
      const command = new StepCommand(step, index + 1);
      return {
        check: (m: Readonly<Model>) => {
          const applies = command.check(m);
          if (!applies) skipped += 1;
          return applies;
        },
        run: async (m: Model, real: StepExecutor) => {
          ran.push(command.step);
          const logged = m.log.length;
          try {
            await command.run(m, real);
          } finally {
            // The failing step's line too: what its ups did (exit codes, a kill) precedes the report.
            if (m.log.length > logged) onStep(m.log[m.log.length - 1] ?? "");
          }
        },
        toString: () => command.toString(),
      };
    });
    await fc.asyncModelRun(() => ({ model, real: executor }), commands);
    return outcome();
  } catch (error) {
    if (!(error instanceof StepFailure)) throw error;
    return outcome({ stepIndex: error.stepIndex, violations: error.violations, sequence: [...ran] });
  }
}

/** The steps of a sequence that would run on the initial worlds (preconditions replayed on the model). */
export function applicable(steps: readonly Step[]): Step[] {
  let model = initialModel();
  const kept: Step[] = [];
  for (const [i, step] of steps.entries()) {
    const worlds = nextWorlds(model, step, i + 1);
    if (!worlds) continue;
    model = { ...model, ...worlds };
    kept.push(step);
  }
  return kept;
}

const invariantOf = (violation: string): string => violation.slice(0, violation.indexOf(":"));

/**
 * Delta debugging over the failing sequence: drops chunks (halves, quarters, … single steps) while
 * the shorter sequence, replayed by `replay` (a full run on fresh stacks), still fails one of the
 * same invariants, within `maxReplays` replays.
 */
export async function shrinkFailure(
  failing: readonly Step[],
  violations: readonly string[],
  replay: (steps: Step[]) => Promise<RunOutcome>,
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
      const result = await replay(candidate);
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

/**
 * The report of a failure: seed, step, violations and the sequence, one step a line. A run of a
 * sequence read from a file (`seed` undefined) has no seed to replay: its JSON is the replay.
 */
export function describeFailure(
  seed: number | undefined,
  failure: NonNullable<RunOutcome["failure"]>,
): string {
  const replay =
    seed === undefined
      ? "replay: npm run soak -- --sequence FILE, the JSON below"
      : `replay: npm run soak -- --seed ${seed} --steps ${failure.stepIndex}`;
  return [
    `random-operations ${seed === undefined ? "sequence" : `seed ${seed}`}: step ${failure.stepIndex} failed`,
    ...failure.violations.map((v) => `  ✗ ${v}`),
    `sequence (${failure.sequence.length} steps run; ${replay}):`,
    ...failure.sequence.map((step, i) => `  ${i + 1}. ${describeStep(step)}`),
    `as JSON (npm run soak -- --sequence FILE): ${sequenceJson(failure.sequence)}`,
  ].join("\n");
}
