/**
 * A sequence of steps as JSON: what a failure report prints and `npm run soak -- --sequence FILE`
 * reads back. Reading checks each step's shape against the step and change kinds this harness
 * knows, so that a file from another version of the harness fails naming the step instead of
 * replaying something else.
 */
import type { Change } from "./changes";
import { STACK_ACTIONS } from "./stack-names";
import { KILL_ROUTES, type Step } from "./steps";

/** The JSON text of a sequence (one line). */
export function sequenceJson(steps: readonly Step[]): string {
  return JSON.stringify(steps);
}

const STEP_KINDS: readonly Step["kind"][] = ["plain", "faults", "kill", "concurrent", "out-of-band", "stack"];

/** Every change kind, with the numeric fields each must carry. */
const CHANGE_FIELDS: Record<Change["kind"], readonly string[]> = {
  "add-device": ["into", "sn", "name"],
  "remove-device": ["pick"],
  "rename-device": ["pick", "name"],
  retag: ["pick"],
  reproject: ["pick"],
  "move-sn": ["pick", "to"],
  "rename-resource": ["pick", "suffix"],
  "set-values": ["pick"],
  "bump-version": ["pick"],
  "split-config": ["pick", "suffix"],
  "merge-configs": ["pick", "with"],
  "add-config": ["suffix"],
  "remove-config": ["pick"],
  "add-rps": ["sn", "url"],
  "remove-rps": ["pick"],
  "change-rps-url": ["pick", "url"],
  "move-front": ["pick"],
  twin: ["pick"],
  "finish-move": ["pick"],
  reparent: ["pick", "parent"],
  "add-fleet": ["name", "parent", "sn"],
  "remove-fleet": ["pick"],
  "namesake-move": ["pick"],
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function changeProblem(change: unknown): string | undefined {
  if (!isRecord(change)) return "has no change";
  const fields = CHANGE_FIELDS[change.kind as Change["kind"]];
  if (!fields) return `has an unknown change kind ${JSON.stringify(change.kind)}`;
  const missing = fields.filter((f) => typeof change[f] !== "number");
  return missing.length > 0 ? `change ${String(change.kind)} lacks ${missing.join(", ")}` : undefined;
}

function stepProblem(step: unknown): string | undefined {
  if (!isRecord(step)) return "is not an object";
  if (!STEP_KINDS.includes(step.kind as Step["kind"]))
    return `has an unknown kind ${JSON.stringify(step.kind)}`;
  if (step.kind === "out-of-band") return typeof step.pick === "number" ? undefined : "lacks pick";
  if (step.kind === "kill" && !KILL_ROUTES.includes(step.route as (typeof KILL_ROUTES)[number]))
    return `has an unknown kill route ${JSON.stringify(step.route)}`;
  if (step.kind === "stack" && !STACK_ACTIONS.includes(step.action as (typeof STACK_ACTIONS)[number]))
    return `has an unknown stack action ${JSON.stringify(step.action)}`;
  if (step.kind === "stack" && typeof step.pick !== "number") return "lacks pick";
  return changeProblem(step.change);
}

/** Reads a sequence printed by {@link sequenceJson}; throws naming the first step that is not one. */
export function readSequence(text: string): Step[] {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed)) throw new Error("a sequence is a JSON array of steps");
  parsed.forEach((step: unknown, i) => {
    const problem = stepProblem(step);
    if (problem) throw new Error(`step ${i + 1} of the sequence ${problem}: ${JSON.stringify(step)}`);
  });
  return parsed as Step[];
}
