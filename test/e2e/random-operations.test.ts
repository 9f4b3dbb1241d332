/**
 * The random-operations harness on the real Pulumi CLI (test/random-operations/): a fixed seed and
 * a fixed number of steps — a count, not a time limit, so the run replays exactly with
 * `npm run soak -- --seed SEED --steps STEPS` — against an emulator of its own. It stops at the
 * first step that breaks an invariant and prints the seed, the step and the sequence (no
 * shrinking here: each try is a full replay; `npm run soak -- --shrink` does it).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { describeFailure, runSequence } from "../random-operations/runner";
import { stepsOf } from "../random-operations/steps";

/** Sized to finish within 10 minutes on a loaded 2-core machine (README, Development). */
const SEED = 20261123;
const STEPS = 16;

describe("random operations on the real CLI", () => {
  let emulator: RunningEmulator;

  beforeAll(async () => {
    emulator = await startEmulator({ control: true });
  });
  afterAll(async () => {
    await emulator.stop();
  });

  it(`keeps every invariant for ${STEPS} steps of seed ${SEED}`, async () => {
    const context = { ...inject("e2e"), emulatorUrl: emulator.url };
    const outcome = await runSequence(stepsOf(SEED, STEPS), context, emulator.control, (line) => console.log(line));
    console.log(
      `random operations: ${outcome.stepsRun} steps run, ${outcome.skipped} skipped, ${outcome.commands} CLI commands, ${outcome.seconds.toFixed(0)} s`,
    );
    if (outcome.failure) expect.fail(describeFailure(SEED, outcome.failure));
    expect(outcome.stepsRun).toBeGreaterThan(0);
  });
});
