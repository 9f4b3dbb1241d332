/**
 * The `up`s a step tries first that the provider must refuse, writing nothing on either
 * application (counted by the emulators' counters, never by the provider):
 *
 * - the main stack dropping `us-site` (two devices, `maxRemovals` 1) while `eu-site`, on the other
 *   application, stays declared (regions.ts): `maxRemovals` holds whatever application a provider
 *   serves;
 * - the second stack declaring, in its fleet, a serial number the main stack owns (an inventory
 *   split by site, with a slip), without `takeOver`: refused naming the main stack, at the steps
 *   whose index is {@link CLAIM_AT} modulo {@link CLAIM_EVERY} (by index, as regions.ts).
 *
 * Each writes the stack's world back as the model has it; the step's `up` then runs as drawn, and
 * the invariants after it (each device with the owner tag of the stack declaring it, each stack's
 * state the declared resources) find what a refused `up` left behind.
 */
import { writesOf } from "../e2e/support/platform-writes";
import type { CommandResult } from "../e2e/support/pulumi-project";
import { writeWorld } from "./program";
import { INITIAL_NAMES, OTHER_PREFIX, stackPaths, type StackNames } from "./stack-names";
import { devicesOn, refusedRegionalDrop } from "./regions";
import { counted, type Stacks } from "./stacks";
import { cloneWorld, type World } from "./world";
import { pickOf } from "./world-edits";

/** The second stack declares one of the main stack's serial numbers at these steps. */
export const CLAIM_EVERY = 8;
export const CLAIM_AT = 5;

/** Whether step `index` tries the second stack's claim on a main stack's device. */
export function claimsAtStep(index: number): boolean {
  return index % CLAIM_EVERY === CLAIM_AT;
}

/** The writes on both applications while `command` runs. */
async function writesDuring(
  stacks: Stacks,
  command: () => Promise<CommandResult>,
): Promise<{ result: CommandResult; writes: string[] }> {
  await stacks.control.resetCounters();
  await stacks.secondApp.control.resetCounters();
  const result = await counted(stacks, command);
  const first = writesOf((await stacks.control.counters()).byRoute);
  const second = writesOf((await stacks.secondApp.control.counters()).byRoute);
  const writes = [
    ...Object.entries(first).map(([route, n]) => `${n}× ${route}`),
    ...Object.entries(second).map(([route, n]) => `${n}× ${route} on the second application`),
  ];
  return { result, writes };
}

const tail = (output: string): string => (output.length > 2000 ? `…${output.slice(-2000)}` : output);

/**
 * Before the step from `before` to `after`: the main stack's `up` without `us-site`, which must
 * fail at `maxRemovals` with no write. Returns what it did and its violations.
 */
export async function tryRegionalDrop(
  stacks: Stacks,
  before: World,
  after: World,
): Promise<{ note: string; violations: string[] }> {
  const dropped = refusedRegionalDrop(before, after);
  if (!dropped) return { note: "", violations: [] };
  writeWorld(stacks.main.dir, dropped);
  const { result, writes } = await writesDuring(stacks, () => stacks.main.up());
  writeWorld(stacks.main.dir, before);
  const what = "maxRemovals across applications: the up dropping us-site (2 devices, maxRemovals 1)";
  const violations: string[] = [];
  if (result.exitCode === 0) violations.push(`${what} exited 0:\n${tail(result.output)}`);
  else if (!result.output.includes("more than maxRemovals 1; nothing was deleted"))
    violations.push(`${what} failed, but not at maxRemovals:\n${tail(result.output)}`);
  if (writes.length > 0) violations.push(`${what} wrote ${writes.join(", ")}`);
  return { note: `us-site dropped alone: exit ${result.exitCode}; `, violations };
}

/**
 * At a claiming step: the second stack's `up` declaring one of the main stack's devices too, which
 * must fail naming the main stack, with no write. Returns what it did and its violations.
 */
export async function trySecondClaim(
  stacks: Stacks,
  index: number,
  main: World,
  second: World,
  names: StackNames = INITIAL_NAMES,
): Promise<{ note: string; violations: string[] }> {
  const claimed = pickOf(devicesOn(main, "first"), index);
  const claiming = cloneWorld(second);
  const fleet = claiming.fleets[0];
  if (!claimsAtStep(index) || !claimed || !fleet) return { note: "", violations: [] };
  fleet.devices.push({ sn: claimed.sn, name: "claimed-by-second" });
  writeWorld(stacks.second.dir, claiming);
  const { result, writes } = await writesDuring(stacks, () => stacks.second.up());
  writeWorld(stacks.second.dir, second);
  const what = `one owner across stacks: the second stack's up declaring ${claimed.sn}, which the main stack owns,`;
  const violations: string[] = [];
  if (result.exitCode === 0) violations.push(`${what} exited 0:\n${tail(result.output)}`);
  // Another prefix's tag is named whole (`team-main:harness-main/dev@…`), the default's by its stack.
  else if (!new RegExp(`managed by stack "(${OTHER_PREFIX})?${stackPaths(names)[0]}[@"]`).test(result.output))
    violations.push(`${what} failed without naming the main stack:\n${tail(result.output)}`);
  if (writes.length > 0) violations.push(`${what} wrote ${writes.join(", ")}`);
  return { note: `second stack claimed ${claimed.sn}: exit ${result.exitCode}; `, violations };
}
