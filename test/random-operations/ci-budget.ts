/**
 * The fixed budget `npm test` gives the random-operations harness (test/e2e/random-operations.test.ts):
 * a seed and a number of steps — a count, not a time limit, so the run replays exactly with
 * `npm run soak -- --seed SEED --steps STEPS`. The unit tests check that these steps still hold
 * what the choice below promises, so that a change to the generators cannot quietly empty it.
 */
import type { Step } from "./steps";

/**
 * Chosen because all of its first 8 steps apply and they hold: what people do to stacks — the
 * second stack removed with `pulumi stack rm --force`, the application exported with `--take-over`
 * and the devices taken over by a new stack (step 3), the main stack's `ownerTag` prefix changed
 * (step 5, where the second stack's claim on a main stack's serial number is refused naming the
 * prefixed tag), `pulumi import` of the second stack's device into the main stack (step 7) — beside
 * a Device moved to the other front-end in one `up`, both `up`s of a split move (a DeviceConfig),
 * a serial number moved between the two same-named fleets, the second stack at the same time
 * (moving its fleet to the other front-end), faults, a kill and an out-of-band rename. By their
 * numbers (regions.ts, refused-ups.ts), steps 1–3 hold the explicit providers on two applications
 * (step 2 the refused drop of `us-site`). A fleet under another parent, a stack rename and a
 * namesake on a second backend are not among them (no seed of the first 120,000 holds every
 * operation in 8 steps): {@link CI_STACK_SEQUENCE} holds those.
 */
export const CI_SEED = 11521;
/** Sized to take no longer than the 8 steps of seed 260 took before the front-end moves. */
export const CI_STEPS = 8;

/**
 * The stack operations the seed leaves out, replayed in `npm test` as a fixed sequence (`npm run
 * soak -- --sequence FILE`): the main stack renamed (with a device renamed in the same `up`), then
 * a namesake of the renamed stack on a second backend declaring one of its devices, while the main
 * stack's `up` moves a fleet under another parent (a new URN, the same name). With the seed, every
 * stack action (stack-names.ts) runs in CI; the unit tests hold both to it.
 */
export const CI_STACK_SEQUENCE: readonly Step[] = [
  { kind: "stack", action: "rename", pick: 0, change: { kind: "rename-device", pick: 0, name: 1 } },
  { kind: "stack", action: "namesake", pick: 1, change: { kind: "reparent", pick: 0, parent: 0 } },
];
