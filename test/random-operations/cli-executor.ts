/**
 * The harness's executor on the real Pulumi CLI: both stacks against one emulator, and the main
 * stack's `us` fleet against a second (regions.ts), both reset for each run. A step first tries the
 * `up`s the provider must refuse (refused-ups.ts), then writes the new worlds, runs its `up` under
 * its circumstances, at most two converging `up --refresh`, then checks every invariant
 * (`step-checks.ts`).
 */
import type { EmulatorControl } from "../../emulator";
import { E2E_CREDENTIALS, type PulumiContext } from "../e2e/support/pulumi-project";
import type { Model, NextWorlds } from "./model";
import { runStackAction, takeOverUp } from "./stack-runs";
import { outOfBand } from "./platform-changes";
import { writeWorld } from "./program";
import { devicesOn } from "./regions";
import { tryRegionalDrop, trySecondClaim } from "./refused-ups";
import { bothPlatformIds, checkStep, settledState } from "./step-checks";
import type { StepExecutor, StepOutcome } from "./step-command";
import { plantLeftovers, plantsLeftovers } from "./record-leftovers";
import {
  concurrentUps,
  counted,
  createStacks,
  harnessRecordRoot,
  killedUp,
  upUnderFaults,
  type SecondApplication,
  type Stacks,
} from "./stacks";
import type { Step } from "./steps";
import type { World } from "./world";

/** The deviceIds on their application of the devices the worlds declare (serial numbers differ across them). */
async function declaredIds(stacks: Stacks, worlds: World[]): Promise<Map<string, string>> {
  const ids = await bothPlatformIds(stacks);
  return new Map(
    worlds.flatMap((w) =>
      [...devicesOn(w, "first"), ...devicesOn(w, "second")].flatMap(({ sn }) => {
        const id = ids.get(sn.toUpperCase());
        return id ? [[sn.toUpperCase(), id] as [string, string]] : [];
      }),
    ),
  );
}

/** Runs the steps of one sequence on fresh stacks of the real CLI (one executor per run). */
export class CliExecutor implements StepExecutor {
  private current: Stacks | undefined;

  constructor(
    private readonly context: PulumiContext,
    private readonly control: EmulatorControl,
    private readonly secondApp: SecondApplication,
  ) {}

  /** The stacks of this run (after {@link start}). */
  get stacks(): Stacks {
    if (!this.current) throw new Error("the executor has not started");
    return this.current;
  }

  /** CLI commands run so far. */
  get commands(): number {
    return this.current?.commands ?? 0;
  }

  /** Resets the emulator, creates the stacks and deploys the initial worlds at once, then checks them. */
  async start(model: Readonly<Model>): Promise<StepOutcome> {
    await this.control.reset();
    await this.secondApp.control.reset();
    this.current = await createStacks(this.context, this.control, this.secondApp, model.main, model.second);
    const stacks = this.current;
    const { main, second } = await concurrentUps(stacks);
    const violations: string[] = [];
    if (main.exitCode !== 0)
      violations.push(`initial up of the main stack failed:\n${main.output.slice(-2500)}`);
    if (second.exitCode !== 0)
      violations.push(`initial up of the second stack failed:\n${second.output.slice(-2500)}`);
    if (violations.length === 0) violations.push(...(await checkStep(stacks, model, new Set(), true)));
    await settledState(this.control);
    return { note: "initial worlds", violations, ids: await bothPlatformIds(stacks) };
  }

  /** Writes the worlds, runs the step's `up` under its circumstances, converges, checks. */
  async run(step: Step, index: number, model: Readonly<Model>, worlds: NextWorlds): Promise<StepOutcome> {
    const stacks = this.stacks;
    // The ups the provider must refuse come first, from the worlds before the step.
    const drop = await tryRegionalDrop(stacks, model.main, worlds.main);
    const claim = await trySecondClaim(stacks, index, model.main, model.second, model.names);
    writeWorld(stacks.main.dir, worlds.main);
    writeWorld(stacks.second.dir, worlds.second);
    const root = harnessRecordRoot(this.context);
    const { emulatorUrl } = this.context;
    const planted = plantsLeftovers(index)
      ? plantLeftovers(root, emulatorUrl, E2E_CREDENTIALS.clientId, model.ids)
      : 0;
    const { note, exempt, secondRan, violations } = await this.runUp(step, index, model, worlds);
    note.text = `${drop.note}${claim.note}${note.text}`;
    if (planted > 0) note.text += `; records left at ${planted} ports`;
    violations.unshift(...drop.violations, ...claim.violations);
    if (violations.length === 0) violations.push(...(await converge(stacks, note.failed)));
    if (violations.length === 0) {
      const checkSecond = secondRan || claim.note !== "";
      violations.push(...(await checkStep(stacks, { ...model, ...worlds }, exempt, checkSecond)));
    }
    const ids = await declaredIds(stacks, [worlds.main, worlds.second]);
    return { note: note.text, violations, ids };
  }

  /** The step's own `up`, under its circumstances. */
  private async runUp(
    step: Step,
    index: number,
    model: Readonly<Model>,
    worlds: NextWorlds,
  ): Promise<{
    note: { text: string; failed: boolean };
    exempt: Set<string>;
    secondRan: boolean;
    violations: string[];
  }> {
    const stacks = this.stacks;
    const exempt = new Set<string>();
    const done = (text: string, failed: boolean, secondRan = false, violations: string[] = []) => ({
      note: { text, failed },
      exempt,
      secondRan,
      violations,
    });
    switch (step.kind) {
      case "plain": {
        const up = await counted(stacks, () => stacks.main.up());
        return done(`up exit ${up.exitCode}`, up.exitCode !== 0);
      }
      case "faults": {
        const up = await upUnderFaults(stacks, step.seed, step.rate);
        return done(`faulted up exit ${up.exitCode}`, up.exitCode !== 0);
      }
      case "kill": {
        const { result, killed } = await killedUp(stacks, step);
        const text = killed ? "killed at the hold" : `not killed (hold not reached), exit ${result.exitCode}`;
        return done(text, killed || result.exitCode !== 0);
      }
      case "concurrent": {
        const { main, second } = await concurrentUps(stacks);
        const text = `ups exit ${main.exitCode}/${second.exitCode}`;
        const failed = main.exitCode !== 0 || second.exitCode !== 0;
        if (second.exitCode === 0) return done(text, failed, true);
        const again = await counted(stacks, () => stacks.second.up());
        const violations =
          again.exitCode === 0 ? [] : [`converge: second stack:\n${again.output.slice(-3000)}`];
        return done(text, failed, true, violations);
      }
      case "out-of-band": {
        const text = await outOfBand(stacks.control, model, step, exempt);
        const up = await counted(stacks, () => stacks.main.upWithRefresh());
        return done(`${text}; up --refresh exit ${up.exitCode}`, up.exitCode !== 0);
      }
      case "stack": {
        const action = await runStackAction(this.context, stacks, step, index, model, worlds);
        const up = await counted(stacks, () => stacks.main.up());
        const text = `${action.note}up exit ${up.exitCode}`;
        if (step.action !== "rm-takeover") return done(text, up.exitCode !== 0, false, action.violations);
        const takeOver = await takeOverUp(stacks, worlds);
        const violations = [...action.violations, ...takeOver.violations];
        return done(`${text}; ${takeOver.note}`, up.exitCode !== 0, true, violations);
      }
    }
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

/**
 * Resets the emulator, creates fresh stacks and deploys the initial worlds (step 0); throws when
 * they do not hold the invariants. For tests that then break the platform on purpose.
 */
export async function deployInitial(
  context: PulumiContext,
  control: EmulatorControl,
  secondApp: SecondApplication,
  model: Model,
): Promise<Stacks> {
  const executor = new CliExecutor(context, control, secondApp);
  const outcome = await executor.start(model);
  if (outcome.violations.length > 0)
    throw new Error(`the initial worlds broke invariants:\n${outcome.violations.join("\n")}`);
  model.ids = outcome.ids;
  return executor.stacks;
}
