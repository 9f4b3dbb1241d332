/**
 * The harness's replay, `--shrink` and `--sequence`, with a fake executor in place of the real CLI:
 * the steps of a seed are the same whatever the step count, the replay command a failure prints
 * runs the failing sequence again, a printed sequence reads back and fails the same way, and the
 * shrinker finds the shortest sequence that breaks the same invariant within its replays. Also
 * that the CI budget's seed holds what ci-budget.ts promises.
 */
import { describe, expect, it } from "vitest";
import { CI_SEED, CI_STACK_SEQUENCE, CI_STEPS } from "../random-operations/ci-budget";
import { operationsOf, type Operation } from "../random-operations/coverage";
import type { Model } from "../random-operations/model";
import {
  applicable,
  describeFailure,
  runSequence,
  shrinkFailure,
  type RunOutcome,
} from "../random-operations/runner";
import { readSequence, sequenceJson } from "../random-operations/sequence-file";
import { STACK_ACTIONS } from "../random-operations/stack-names";
import type { StepExecutor, StepOutcome } from "../random-operations/step-command";
import { stepsOf, type Step } from "../random-operations/steps";
import type { World } from "../random-operations/world";

/** Breaks an invariant (returns its violation) at a step, or keeps them (undefined). */
type Breaker = (
  step: Step,
  model: Readonly<Model>,
  worlds: { main: World; second: World },
) => string | undefined;

/** An executor that runs nothing: each step keeps the invariants unless `breaks` says otherwise. */
class FakeExecutor implements StepExecutor {
  commands = 0;
  /** The indexes of the steps it was given. */
  readonly ran: number[] = [];

  constructor(private readonly breaks: Breaker = () => undefined) {}

  start(): Promise<StepOutcome> {
    return Promise.resolve({ note: "initial worlds", violations: [], ids: new Map() });
  }

  run(step: Step, index: number, model: Readonly<Model>, worlds: { main: World; second: World }) {
    this.commands += 4;
    this.ran.push(index);
    const violation = this.breaks(step, model, worlds);
    return Promise.resolve({ note: "fake", violations: violation ? [violation] : [], ids: new Map() });
  }
}

/** Whether a step is the second `up` of a split move. */
const finishesMove = (step: Step): boolean =>
  step.kind !== "out-of-band" && step.change.kind === "finish-move";

/** Breaks the second `up` of each split move: the smallest failing sequence is the move's two steps. */
const breaksSplitMove: Breaker = (step) =>
  finishesMove(step) ? "platform = declared: 2400000A0001 is declared but not on the platform" : undefined;

const replayWith = (breaks: Breaker) => (steps: Step[]) => runSequence(steps, new FakeExecutor(breaks));

/**
 * The first seed whose run of `count` steps fails under `breaks` after at least `minRun` steps,
 * with a step skipped (precondition) before the failure, so that a step's index in its sequence
 * and its place among the steps that ran differ.
 */
async function failingSeed(breaks: Breaker, count: number, minRun: number) {
  for (let seed = 1; ; seed++) {
    const outcome = await runSequence(stepsOf(seed, count), new FakeExecutor(breaks));
    const failure = outcome.failure;
    if (failure && failure.sequence.length >= minRun && failure.stepIndex > failure.sequence.length)
      return { seed, failure };
  }
}

describe("replaying a seed", () => {
  it("draws the same steps for a seed, and its first N the same whatever the count", () => {
    const long = stepsOf(4242, 60);
    expect(stepsOf(4242, 60)).toEqual(long);
    for (const n of [0, 1, 7, 30]) expect(stepsOf(4242, n)).toEqual(long.slice(0, n));
    expect(stepsOf(4243, 60)).not.toEqual(long);
  });

  it("runs again, with the command a failure prints, exactly the sequence that failed", async () => {
    const { seed, failure } = await failingSeed(breaksSplitMove, 40, 4);
    const report = describeFailure(seed, failure);
    const command = /replay: npm run soak -- --seed (\d+) --steps (\d+)/.exec(report);
    expect(command, report).not.toBeNull();
    const [replaySeed, replaySteps] = [Number(command?.[1]), Number(command?.[2])];
    expect(replaySeed).toBe(seed);
    const steps = stepsOf(replaySeed, replaySteps);
    expect(applicable(steps)).toEqual(failure.sequence);
    const again = await runSequence(steps, new FakeExecutor(breaksSplitMove));
    expect(again.failure).toEqual(failure);
  });

  it("skips the steps whose precondition fails, the same way in the model run and in applicable()", async () => {
    const steps = stepsOf(77, 40);
    const executor = new FakeExecutor();
    const outcome = await runSequence(steps, executor);
    const kept = applicable(steps);
    expect(outcome.stepsRun).toBe(kept.length);
    expect(outcome.skipped).toBe(steps.length - kept.length);
    expect(executor.ran.map((i) => steps[i - 1])).toEqual(kept);
  });
});

describe("a printed sequence (--sequence FILE)", () => {
  it("reads back from a failure report and fails the same way", async () => {
    const { seed, failure } = await failingSeed(breaksSplitMove, 40, 4);
    const json = /as JSON \(npm run soak -- --sequence FILE\): (.*)$/m.exec(
      describeFailure(seed, failure),
    )?.[1];
    const sequence = readSequence(json ?? "");
    expect(sequence).toEqual(failure.sequence);
    const replayed = await runSequence(sequence, new FakeExecutor(breaksSplitMove));
    expect(replayed.failure?.violations).toEqual(failure.violations);
    expect(replayed.failure?.sequence).toEqual(failure.sequence);
    expect(replayed.failure?.stepIndex).toBe(sequence.length);
  });

  it("is refused, naming the step, when a step is not one this harness knows", () => {
    const steps = stepsOf(5, 3);
    const text = JSON.stringify([...steps, { kind: "plain", change: { kind: "teleport", pick: 1 } }]);
    expect(() => readSequence(text)).toThrow(/step 4 of the sequence has an unknown change kind "teleport"/);
    expect(() => readSequence(`{"kind":"plain"}`)).toThrow(/JSON array/);
    expect(() =>
      readSequence(JSON.stringify([{ kind: "plain", change: { kind: "move-sn", pick: 1 } }])),
    ).toThrow(/step 1 of the sequence change move-sn lacks to/);
  });
});

describe("shrinking a failure (--shrink)", () => {
  it("finds the two steps of the split move that still break the same invariant", async () => {
    const { failure } = await failingSeed(breaksSplitMove, 40, 8);
    const shrunk = await shrinkFailure(failure.sequence, failure.violations, replayWith(breaksSplitMove), 40);
    expect(shrunk.sequence.map((s) => (s.kind === "out-of-band" ? s.kind : s.change.kind))).toEqual([
      "twin",
      "finish-move",
    ]);
    expect(shrunk.violations).toEqual(failure.violations);
    expect(shrunk.replays).toBeLessThanOrEqual(40);
  });

  it("keeps the sequence when shorter ones break only another invariant", async () => {
    const { failure } = await failingSeed(breaksSplitMove, 40, 6);
    // The whole sequence breaks "platform = declared"; any shorter one only "deviceId kept".
    const otherwise: Breaker = (step, model) => {
      if (!finishesMove(step)) return undefined;
      return model.steps + 1 < failure.sequence.length
        ? "deviceId kept: 2400000A0001 was deviceId 1, is now 2"
        : "platform = declared: 2400000A0001 is declared but not on the platform";
    };
    const shrunk = await shrinkFailure(failure.sequence, failure.violations, replayWith(otherwise), 40);
    expect(shrunk.sequence).toEqual(failure.sequence);
  });

  it("stops after the replays it is allowed", async () => {
    const { failure } = await failingSeed(breaksSplitMove, 40, 8);
    let replays = 0;
    const counting = (steps: Step[]): Promise<RunOutcome> => {
      replays += 1;
      return replayWith(breaksSplitMove)(steps);
    };
    const shrunk = await shrinkFailure(failure.sequence, failure.violations, counting, 2);
    expect(replays).toBe(2);
    expect(shrunk.replays).toBe(2);
  });
});

describe("the CI budget (ci-budget.ts)", () => {
  it("holds every operation its choice promises", () => {
    const held = operationsOf(stepsOf(CI_SEED, CI_STEPS));
    const promised: Operation[] = [
      "front-end move in one up",
      "split move, first up",
      "split move, second up",
      "serial number between same-named fleets",
      "second stack at the same time",
      "second stack's front-end move",
      "faults",
      "kill",
      "out of band",
      "explicit providers on two applications",
      "a fleet dropped beside another application's",
      "second stack declaring a main stack's serial number",
      "ownerTag prefix changed",
      "import of another stack's device",
      "stack rm --force, export, take-over",
    ];
    expect(promised.filter((o) => (held.get(o) ?? 0) === 0)).toEqual([]);
  });

  it("holds, with its fixed sequence of stack operations, every stack action and the fleet under another parent", () => {
    expect(applicable(CI_STACK_SEQUENCE)).toEqual(CI_STACK_SEQUENCE);
    expect(readSequence(sequenceJson(CI_STACK_SEQUENCE))).toEqual(CI_STACK_SEQUENCE);
    const held = operationsOf(CI_STACK_SEQUENCE);
    expect(held.get("stack renamed")).toBe(1);
    expect(held.get("namesake on a second backend")).toBe(1);
    expect(held.get("fleet under another parent")).toBe(1);
    const actions = (steps: readonly Step[]) =>
      applicable(steps).flatMap((s) => (s.kind === "stack" ? [s.action] : []));
    const inCi = new Set([...actions(stepsOf(CI_SEED, CI_STEPS)), ...actions(CI_STACK_SEQUENCE)]);
    expect(STACK_ACTIONS.filter((a) => !inCi.has(a))).toEqual([]);
  });

  it("prints, for a failing sequence read from a file, its JSON as the replay and no seed", async () => {
    const { seed, failure } = await failingSeed(breaksSplitMove, 40, 4);
    const report = describeFailure(undefined, failure);
    expect(report).toMatch(/^random-operations sequence: step \d+ failed/);
    expect(report).toMatch(/replay: npm run soak -- --sequence FILE, the JSON below/);
    expect(report).not.toContain(`--seed`);
    expect(describeFailure(seed, failure)).toContain(`--seed ${seed} --steps ${failure.stepIndex}`);
  });
});
