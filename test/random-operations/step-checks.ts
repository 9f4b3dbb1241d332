/**
 * The checks after a step: the invariants against both applications' platforms (once the
 * configuration tasks have finished), each stack's state against the platform, deviceIds kept, and the CLI's own
 * `preview --expect-no-changes` and `refresh --expect-no-changes`.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { EmulatorControl, EmulatorStateView } from "../../emulator";
import {
  configurationMatches,
  idsKept,
  ownerTagsOf,
  platformIds,
  platformMatches,
  stateMatches,
} from "./invariants";
import type { Model } from "./model";
import { counted, type Stacks } from "./stacks";
import { devicesOn } from "./regions";

/** Tasks apply on the emulator's timer; a check waits for the condition, never for a duration. */
const TASKS_SETTLE_LIMIT_MS = 60_000;

/** The platform's state once no configuration task is pending. */
export async function settledState(control: EmulatorControl): Promise<EmulatorStateView> {
  const deadline = Date.now() + TASKS_SETTLE_LIMIT_MS;
  for (;;) {
    const state = await control.state();
    if (!state.tasks.some((t) => t.status === "PENDING")) return state;
    if (Date.now() > deadline) throw new Error("configuration tasks still pending after 60 s");
    await sleep(50);
  }
}

/** sn (upper case) → deviceId of both applications' devices (serial numbers differ across them). */
export async function bothPlatformIds(stacks: Stacks): Promise<Map<string, string>> {
  const first = platformIds(await stacks.control.state());
  return new Map([...first, ...platformIds(await stacks.secondApp.control.state())]);
}

/** Every invariant after a step; returns the violations. */
export async function checkStep(
  stacks: Stacks,
  model: Readonly<Model>,
  exempt: ReadonlySet<string>,
  secondRan: boolean,
): Promise<string[]> {
  const state = await settledState(stacks.control);
  const secondState = await stacks.secondApp.control.state();
  // Serial numbers differ across the applications: one map of both.
  const ids = new Map([...platformIds(state), ...platformIds(secondState)]);
  const declaredNow = new Set(
    [model.main, model.second]
      .flatMap((w) => [...devicesOn(w, "first"), ...devicesOn(w, "second")])
      .map(({ sn }) => sn.toUpperCase()),
  );
  const after = new Map([...ids].filter(([sn]) => declaredNow.has(sn)));
  const violations = [
    ...platformMatches(state, [model.main, model.second], "first", ownerTagsOf(model.names)),
    ...platformMatches(secondState, [model.main, model.second], "second", ownerTagsOf(model.names)),
    ...configurationMatches(state, model.main),
    ...idsKept(model.ids, after, exempt),
    ...stateMatches(await counted(stacks, () => stacks.main.exportStack()), model.main, ids, "main"),
  ];
  if (secondRan) {
    violations.push(
      ...stateMatches(await counted(stacks, () => stacks.second.exportStack()), model.second, ids, "second"),
    );
  }
  const preview = await counted(stacks, () => stacks.main.preview({ expectNoChanges: true }));
  if (preview.exitCode !== 0) violations.push(`preview --expect-no-changes failed:\n${tail(preview.output)}`);
  const refresh = await counted(stacks, () => stacks.main.refreshExpectingNoChanges());
  if (refresh.exitCode !== 0) violations.push(`refresh --expect-no-changes failed:\n${tail(refresh.output)}`);
  return violations;
}

function tail(output: string): string {
  return output.length > 2500 ? `…${output.slice(-2500)}` : output;
}
