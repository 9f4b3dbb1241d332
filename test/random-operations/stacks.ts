/**
 * The real side of the harness: the main stack and a second stack writing to the same application
 * (the main stack's `us` fleet to a second one), both running the fixed program on the real Pulumi
 * CLI, and the ways an `up` is run — plainly, under seeded faults, killed at a held request,
 * concurrently with the other stack.
 */
import path from "node:path";
import type { EmulatorControl, FaultKind } from "../../emulator";
import { installedPluginDir } from "../e2e/support/front-ends";
import {
  E2E_CREDENTIALS,
  PulumiProject,
  type CommandResult,
  type PulumiContext,
} from "../e2e/support/pulumi-project";
import { HARNESS_PROGRAM, writeApplications, writeWorld } from "./program";
import { SECOND_APPLICATION } from "./regions";
import { WRITE_ROUTES, type Step } from "./steps";
import type { World } from "./world";

/** Every fault kind a step injects (`delay` only slows, so it is left out). */
// No 429: a random one slows the whole client down (pacer.ts), as the platform's rate limit means it to.
export const STEP_FAULT_KINDS: FaultKind[] = ["500", "503", "reset", "reset-after"];

/** The second application's emulator: its URL and control API. */
export interface SecondApplication {
  url: string;
  control: EmulatorControl;
}

/** What the harness runs against. */
export interface Stacks {
  control: EmulatorControl;
  /** The second application (regions.ts): the `us` provider's. */
  secondApp: SecondApplication;
  main: PulumiProject;
  second: PulumiProject;
  /** Every CLI command run, for the measured cost of a run. */
  commands: number;
}

/** Where the harness's stacks keep their deployments' one-owner records. */
export function harnessRecordRoot(context: PulumiContext): string {
  return path.join(context.workDir, "harness-owners");
}

/**
 * Creates the two stacks (fresh projects in the context's work directory, whose Pulumi.yaml names
 * the installed package's plugin) with their first worlds, and the main stack's regional providers'
 * inputs: `eu` on the stacks' own application, `us` on the second.
 */
export async function createStacks(
  context: PulumiContext,
  control: EmulatorControl,
  secondApp: SecondApplication,
  main: World,
  second: World,
): Promise<Stacks> {
  // The one-owner record of the harness's own deployments, apart from the user's (record-leftovers.ts plants there).
  const env = { DEVPLATFORM_OWNERSHIP_DIR: harnessRecordRoot(context) };
  const project = (name: string) =>
    PulumiProject.create(
      { name, program: HARNESS_PROGRAM, pluginPath: installedPluginDir(context.nodeModules), env },
      context,
    );
  const mainProject = await project("harness-main");
  const secondProject = await project("harness-second");
  writeWorld(mainProject.dir, main);
  writeWorld(secondProject.dir, second);
  writeApplications(mainProject.dir, {
    eu: { baseUrl: context.emulatorUrl, ...E2E_CREDENTIALS },
    us: { baseUrl: secondApp.url, ...SECOND_APPLICATION },
  });
  return { control, secondApp, main: mainProject, second: secondProject, commands: 0 };
}

/** Runs one CLI command of a stack, counted. */
export async function counted<T>(stacks: Stacks, command: () => Promise<T>): Promise<T> {
  stacks.commands += 1;
  return command();
}

/** An `up` under seeded faults of every kind; the faults are cleared whatever happens. */
export async function upUnderFaults(stacks: Stacks, seed: number, rate: number): Promise<CommandResult> {
  // Retry-After 0: the provider's retries are exercised without sleeping a second each.
  await stacks.control.setFaults({ kinds: STEP_FAULT_KINDS, rate, seed, retryAfterSeconds: 0 });
  try {
    return await counted(stacks, () => stacks.main.up());
  } finally {
    await stacks.control.clearFaults();
  }
}

/**
 * An `up` killed with SIGKILL once a request of `route` (or of any write route) is held after
 * `after` of them went through; the held requests are then released as `then` says (performed:
 * an outcome unknown to the dead client; or failed) and the file backend's lock removed with
 * `pulumi cancel --yes`. An `up` that never reaches a hold finishes.
 */
export async function killedUp(
  stacks: Stacks,
  step: Extract<Step, { kind: "kill" }>,
): Promise<{ result: CommandResult; killed: boolean }> {
  const { control } = stacks;
  const routes = step.route === "any write" ? [...WRITE_ROUTES] : [step.route];
  const holdIds = new Set<string>();
  for (const route of routes) holdIds.add(await control.hold(route, step.after, step.then));
  const [first] = holdIds;
  const result = await counted(stacks, () =>
    stacks.main.up({
      // Killed once a request waits at any of the holds: a request count, never a moment.
      killWhenHeld: {
        control,
        holdId: first as string,
        held: 0,
        andWhen: async () => (await control.holds()).some((h) => holdIds.has(h.holdId) && h.held > 0),
      },
    }),
  );
  const killed = result.killed !== undefined;
  for (const holdId of holdIds) await control.release(holdId);
  if (killed) {
    const cancel = await counted(stacks, () => stacks.main.cli(["cancel", "--yes"]));
    if (cancel.exitCode !== 0) throw new Error(`pulumi cancel failed after the kill:\n${cancel.output}`);
  }
  return { result, killed };
}

/** The main stack's `up` and the second stack's at the same time. */
export async function concurrentUps(stacks: Stacks): Promise<{ main: CommandResult; second: CommandResult }> {
  const [main, second] = await Promise.all([
    counted(stacks, () => stacks.main.up()),
    counted(stacks, () => stacks.second.up()),
  ]);
  return { main, second };
}
