/**
 * Which operations of the one-owner class a sequence holds, replayed on the model (only the steps
 * whose preconditions hold count): for the soak's summary, and for the unit test that keeps the CI
 * budget's seed holding what ci-budget.ts promises.
 */
import { nextWorlds, initialModel, type Model } from "./model";
import { devicesOn, refusedRegionalDrop } from "./regions";
import { claimsAtStep } from "./refused-ups";
import type { StackAction } from "./stack-names";
import type { Step } from "./steps";
import { declaredDevices, type World } from "./world";

/** The operations counted. */
export const OPERATIONS = [
  "front-end move in one up",
  "split move, first up",
  "split move, second up",
  "serial number between same-named fleets",
  "fleet under another parent",
  "same-named fleet added",
  "second stack at the same time",
  "second stack's front-end move",
  "faults",
  "kill",
  "out of band",
  "explicit providers on two applications",
  "a fleet dropped beside another application's",
  "second stack declaring a main stack's serial number",
  "stack renamed",
  "ownerTag prefix changed",
  "namesake on a second backend",
  "import of another stack's device",
  "stack rm --force, export, take-over",
] as const;
export type Operation = (typeof OPERATIONS)[number];

/** The operation of each stack action (stack-names.ts). */
const STACK_OPERATIONS: Record<StackAction, Operation> = {
  rename: "stack renamed",
  "owner-tag": "ownerTag prefix changed",
  namesake: "namesake on a second backend",
  import: "import of another stack's device",
  "rm-takeover": "stack rm --force, export, take-over",
};

/** The fleet (by key) that declares each serial number, and each fleet key's name. */
function fleetOwners(world: World): { owner: Map<string, string>; names: Map<string, string> } {
  const owner = new Map<string, string>();
  for (const { decl, owner: o } of declaredDevices(world)) if ("fleet" in o) owner.set(decl.sn, o.fleet);
  const names = new Map(world.fleets.map((f) => [f.parent ? `${f.parent}/${f.name}` : f.name, f.name]));
  return { owner, names };
}

/** A serial number moved from one fleet to another of the same name, both still declared. */
function sameNamedMove(before: World, after: World): boolean {
  const a = fleetOwners(before);
  const b = fleetOwners(after);
  for (const [sn, from] of a.owner) {
    const to = b.owner.get(sn);
    if (to === undefined || to === from || !a.names.has(to) || !b.names.has(from)) continue;
    if (a.names.get(from) === b.names.get(to)) return true;
  }
  return false;
}

/** The operations that follow the step's index (regions.ts, refused-ups.ts), whatever it draws. */
function scheduledOperations(index: number, model: Model, worlds: { main: World }): Operation[] {
  const found: Operation[] = [];
  if ((model.main.regional ?? []).length === 0 && (worlds.main.regional ?? []).length > 0)
    found.push("explicit providers on two applications");
  if (refusedRegionalDrop(model.main, worlds.main))
    found.push("a fleet dropped beside another application's");
  if (claimsAtStep(index) && devicesOn(model.main, "first").length > 0 && model.second.fleets.length > 0)
    found.push("second stack declaring a main stack's serial number");
  return found;
}

function operationsOfStep(step: Step, model: Model, worlds: { main: World; second: World }): Operation[] {
  const found: Operation[] = [];
  if (step.kind === "faults" || step.kind === "kill") found.push(step.kind);
  if (step.kind === "out-of-band") return ["out of band"];
  if (step.kind === "stack") found.push(STACK_OPERATIONS[step.action]);
  if (step.kind === "concurrent") {
    found.push("second stack at the same time");
    if (step.second.kind === "move") found.push("second stack's front-end move");
  }
  const change = step.change;
  if (change.kind === "move-front") found.push("front-end move in one up");
  if (change.kind === "twin") found.push("split move, first up");
  if (change.kind === "finish-move") found.push("split move, second up");
  if (change.kind === "reparent") found.push("fleet under another parent");
  if (
    change.kind === "add-fleet" &&
    model.main.fleets.some((f) => worlds.main.fleets.at(-1)?.name === f.name)
  )
    found.push("same-named fleet added");
  if (sameNamedMove(model.main, worlds.main)) found.push("serial number between same-named fleets");
  return found;
}

/** How many steps of each operation `steps` hold, on the initial worlds. */
export function operationsOf(steps: readonly Step[]): Map<Operation, number> {
  const counts = new Map<Operation, number>(OPERATIONS.map((o) => [o, 0]));
  let model = initialModel();
  for (const [i, step] of steps.entries()) {
    const worlds = nextWorlds(model, step, i + 1);
    if (!worlds) continue;
    for (const operation of [
      ...operationsOfStep(step, model, worlds),
      ...scheduledOperations(i + 1, model, worlds),
    ])
      counts.set(operation, (counts.get(operation) ?? 0) + 1);
    model = { ...model, ...worlds };
  }
  return counts;
}
