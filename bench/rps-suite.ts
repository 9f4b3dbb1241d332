/**
 * The RPS rows (issue #46, `npm run bench -- --rps-only`): a batch of N records as one RpsFleet
 * against the same N records as N RpsProfile resources and the engine's floor — N no-op resources,
 * and one no-op resource of the batch's shape — side by side in one run, step by step (create,
 * no-change preview, refresh, an `up` changing one URL, destroy), with requests and state bytes per
 * record. The RpsProfiles and the no-op resources run with `PULUMI_SKIP_CHECKPOINTS=true` (the
 * engine writes their state once, at the end), their best case. Then the platform-limit table's
 * batch row: K stacks of one batch of M records each, their `up`s at once against an emulator
 * limited to R requests a second (rps-limit.ts).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { startEmulator, type RunningEmulator } from "../emulator";
import { writesOf } from "../test/e2e/support/platform-writes";
import {
  assertOk,
  PulumiProject,
  type CommandResult,
  type PulumiContext,
} from "../test/e2e/support/pulumi-project";
import { ownPaceEnv } from "./own-pace";
import { noopProgram } from "./programs";
import { loadNow, RPS_STEPS, type RpsContenderKey, type RpsSizeFigures, type RpsStep } from "./results";
import {
  RPS_BATCH_PROGRAM,
  RPS_SHAPE_FLOOR_PROGRAM,
  rpsProfilesProgram,
  rpsRecordsFile,
} from "./rps-programs";

const SKIP_CHECKPOINTS = { env: { PULUMI_SKIP_CHECKPOINTS: "true" } };

/** What one contender does at each step. */
interface Contender {
  readonly label: RpsContenderKey;
  readonly project: PulumiProject;
  /** The platform it talks to, whose counters count its requests (none for the floors). */
  readonly platform?: RunningEmulator;
  /** Prepares the change of one record's URL before that step. */
  change(): void;
  readonly options: { env?: Record<string, string> };
}

function run(contender: Contender, step: RpsStep): Promise<CommandResult> {
  const { project, options } = contender;
  switch (step) {
    case "up (create)":
    case "up (change one)":
      return project.up(options);
    case "preview (no changes)":
      return project.preview({ expectNoChanges: true }, options);
    case "refresh":
      return project.refresh(options);
    case "destroy":
      return project.destroy(options);
  }
}

/** A project whose program reads `rps.json` (the batch and its shape's floor). */
async function fileContender(
  label: RpsContenderKey,
  program: string,
  n: number,
  prefix: string,
  context: PulumiContext,
  platform?: RunningEmulator,
): Promise<Contender> {
  const project = await PulumiProject.create(
    { name: `bench-rps-${label}`, program, ...(platform ? { env: ownPaceEnv() } : {}) },
    platform ? { ...context, emulatorUrl: platform.url } : context,
  );
  const file = path.join(project.dir, "rps.json");
  writeFileSync(file, rpsRecordsFile(n, prefix));
  return {
    label,
    project,
    platform,
    change: () => writeFileSync(file, rpsRecordsFile(n, prefix, 7)),
    options: {},
  };
}

async function contenders(
  n: number,
  context: PulumiContext,
  platforms: { batch: RunningEmulator; profiles?: RunningEmulator },
): Promise<Contender[]> {
  const list = [
    await fileContender("batch", RPS_BATCH_PROGRAM, n, "2EB1", context, platforms.batch),
    await fileContender("shape", RPS_SHAPE_FLOOR_PROGRAM, n, "2EB2", context),
  ];
  const noop = await PulumiProject.create({ name: "bench-rps-noop", program: noopProgram(n) }, context);
  list.push({
    label: "noop",
    project: noop,
    change: () => noop.setProgram(noopProgram(n, 7)),
    ...{ options: SKIP_CHECKPOINTS },
  });
  const profilesPlatform = platforms.profiles;
  if (profilesPlatform) {
    const profiles = await PulumiProject.create(
      { name: "bench-rps-profiles", program: rpsProfilesProgram(n, "2EB3"), env: ownPaceEnv() },
      { ...context, emulatorUrl: profilesPlatform.url },
    );
    list.push({
      label: "profiles",
      project: profiles,
      platform: profilesPlatform,
      change: () => profiles.setProgram(rpsProfilesProgram(n, "2EB3", 7)),
      options: SKIP_CHECKPOINTS,
    });
  }
  return list;
}

/**
 * Measures the RPS rows at N records; the N RpsProfiles only when `withProfiles`. The batch and the
 * RpsProfiles get a platform each: a refresh pages through the application's records, which must
 * hold that contender's records only.
 */
export async function measureRps(
  n: number,
  context: PulumiContext,
  withProfiles: boolean,
): Promise<RpsSizeFigures> {
  const batch = await startEmulator({ control: true });
  const profiles = withProfiles ? await startEmulator({ control: true }) : undefined;
  const figures: RpsSizeFigures = {
    records: n,
    load: { start: loadNow(), end: 0 },
    steps: {},
    stateBytesPerRecord: {},
  };
  try {
    const all = await contenders(n, context, { batch, profiles });
    for (const step of RPS_STEPS) {
      for (const contender of all) {
        if (step === "up (change one)") contender.change();
        await contender.platform?.control.resetCounters();
        const started = performance.now();
        assertOk(await run(contender, step));
        const seconds = (performance.now() - started) / 1000;
        const counters = await contender.platform?.control.counters();
        (figures.steps[step] ??= {})[contender.label] = {
          seconds: Math.round(seconds * 100) / 100,
          requests: counters?.total ?? 0,
          writes: writesOf(counters?.byRoute ?? {}),
        };
        if (step === "up (create)") {
          figures.stateBytesPerRecord[contender.label] = Math.round(
            contender.project.stateFileText().length / n,
          );
        }
        console.log(
          `  N=${n} ${step}, ${contender.label}: ${seconds.toFixed(1)} s, ${counters?.total ?? 0} requests`,
        );
      }
    }
  } finally {
    await batch.stop();
    await profiles?.stop();
  }
  figures.load.end = loadNow();
  return figures;
}
