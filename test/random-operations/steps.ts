/**
 * The steps of a run, as data, and the fast-check arbitraries that generate them. A step is one
 * change of the declaration run by a plain `up`, or the same under circumstances: seeded faults of
 * every kind for that `up`, a SIGKILL of it at a request chosen by route and count (an emulator
 * hold), a second stack writing to the same application at the same time, or an out-of-band change
 * on the platform followed by `up --refresh`. The changes weigh most the moves that can lose what
 * the one-owner record guards: serial numbers between fleets (two of them of one name under two
 * parents), resources between the two front-ends in one `up` or split over two, renames, reparents.
 */
import fc from "fast-check";
import { describeChange, type Change, type ResourceKind } from "./changes";
import { STACK_ACTIONS, type StackAction } from "./stack-names";
import { PROJECTS, TAGS, type Front, type SensorProperties } from "./world";

/**
 * A change to the second stack's fleet, run concurrently with the main stack's `up`: a device
 * added, removed or renamed, or the fleet moved to the other front-end.
 */
export type SecondChange = { kind: "add" | "remove" | "rename" | "move"; pick: number; name: number };

/** The platform's write routes, as the emulator's counters name them. */
export const WRITE_ROUTES = [
  "POST /devices",
  "PUT /devices",
  "DELETE /devices/{deviceId}",
  "POST /tasks",
  "PATCH /devices/{deviceId}/properties",
  "POST /rps/profile",
  "DELETE /rps/{sn}",
] as const;

/**
 * Where a kill may stop an `up`: at one route (a write, or a read that precedes writes), or at
 * whichever write route reaches the count first (`any write`, so most kills land).
 */
export const KILL_ROUTES = [
  ...WRITE_ROUTES,
  "GET /devices/{deviceId}/config",
  "POST /devices/search",
  "any write",
] as const;

export type Step =
  | { kind: "plain"; change: Change }
  | { kind: "faults"; change: Change; seed: number; rate: number }
  | {
      kind: "kill";
      change: Change;
      route: (typeof KILL_ROUTES)[number];
      after: number;
      /** What the held request does once the CLI is dead: performed (outcome unknown) or failed. */
      then: "perform" | "fail";
    }
  | { kind: "concurrent"; change: Change; second: SecondChange }
  | { kind: "out-of-band"; action: "rename" | "delete" | "retag"; pick: number; name: number }
  /** Something done to a stack first (stack-names.ts), then the change's `up`. */
  | { kind: "stack"; action: StackAction; change: Change; pick: number };

const pick = fc.nat({ max: 999 });
const suffix = fc.nat({ max: 99 });
const front = fc.constantFrom<Front>("dynamic", "plugin");
const resourceKind = fc.constantFrom<ResourceKind>("device", "fleet", "rps", "config");

const properties: fc.Arbitrary<SensorProperties> = fc.record({
  reportInterval: fc.constantFrom(600, 900, 1200, 3600),
  temperatureUnit: fc.constantFrom(0 as const, 1 as const),
  alarmThreshold: fc.record({ high: fc.constantFrom(28, 30, 35), low: fc.constantFrom(0, 2, 5) }),
});

/** Every kind of declaration change, weighted towards the moves that lose data. */
export const changeArb: fc.Arbitrary<Change> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant("add-device"), into: pick, sn: pick, name: pick, front }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant("remove-device"), pick }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("rename-device"), pick, name: pick }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("retag"), pick, tags: fc.subarray([...TAGS]) }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant("reproject"),
      pick,
      project: fc.constantFrom<string | null>(...PROJECTS, null),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant("move-sn"), pick, to: pick, front }), weight: 4 },
  {
    arbitrary: fc.record({ kind: fc.constant("rename-resource"), resource: resourceKind, pick, suffix }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant("move-front"), resource: resourceKind, pick }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant("twin"), resource: resourceKind, pick }), weight: 3 },
  {
    arbitrary: fc.record({
      kind: fc.constant("finish-move"),
      pick,
      keep: fc.constantFrom("new" as const, "old" as const),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant("namesake-move"), pick }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("reparent"), pick, parent: pick }), weight: 2 },
  {
    arbitrary: fc.record({ kind: fc.constant("add-fleet"), name: pick, parent: pick, sn: pick, front }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant("remove-fleet"), pick }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("set-values"), pick, properties }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("bump-version"), pick }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("split-config"), pick, suffix }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("merge-configs"), pick, with: pick }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant("add-config"),
      targets: fc.array(pick, { minLength: 1, maxLength: 3 }),
      properties,
      resetOnDelete: fc.boolean(),
      suffix,
      front,
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant("remove-config"), pick }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("add-rps"), sn: pick, url: pick, front }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("remove-rps"), pick }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("change-rps-url"), pick, url: pick }), weight: 1 },
);

const secondChange: fc.Arbitrary<SecondChange> = fc.record({
  kind: fc.constantFrom("add" as const, "remove" as const, "rename" as const, "move" as const),
  pick,
  name: pick,
});

/** One step of a run. */
export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("plain"), change: changeArb }), weight: 8 },
  {
    arbitrary: fc.record({
      kind: fc.constant("faults"),
      change: changeArb,
      seed: fc.nat({ max: 2 ** 31 - 1 }),
      rate: fc.constantFrom(0.1, 0.2, 0.3),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("kill"),
      change: changeArb,
      route: fc.oneof(
        { arbitrary: fc.constantFrom(...KILL_ROUTES), weight: 1 },
        { arbitrary: fc.constant("any write" as const), weight: 1 },
      ),
      after: fc.nat({ max: 2 }),
      then: fc.constantFrom("perform" as const, "fail" as const),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({ kind: fc.constant("concurrent"), change: changeArb, second: secondChange }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("out-of-band"),
      action: fc.constantFrom("rename" as const, "delete" as const, "retag" as const),
      pick,
      name: pick,
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("stack"),
      action: fc.constantFrom(...STACK_ACTIONS),
      change: changeArb,
      pick,
    }),
    weight: 3,
  },
);

/**
 * The steps of seed `seed`: the first N of them are the same whatever N, so `--steps` extends a
 * replayed run rather than drawing a new one.
 */
export function stepsOf(seed: number, count: number): Step[] {
  return count === 0 ? [] : fc.sample(stepArb, { seed, numRuns: count });
}

/** A one-line description of a step, for the printed sequence. */
export function describeStep(step: Step): string {
  switch (step.kind) {
    case "plain":
      return describeChange(step.change);
    case "faults":
      return `faults(seed ${step.seed}, rate ${step.rate}) + ${describeChange(step.change)}`;
    case "kill":
      return `kill(at ${step.route} after ${step.after}, then ${step.then}) + ${describeChange(step.change)}`;
    case "concurrent":
      return `concurrent(second stack ${JSON.stringify(step.second)}) + ${describeChange(step.change)}`;
    case "out-of-band":
      return `out-of-band ${step.action} {"pick":${step.pick},"name":${step.name}}`;
    case "stack":
      return `stack ${step.action} {"pick":${step.pick}} + ${describeChange(step.change)}`;
  }
}
