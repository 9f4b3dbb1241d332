/**
 * The fixed budget `npm test` gives the random-operations harness (test/e2e/random-operations.test.ts):
 * a seed and a number of steps — a count, not a time limit, so the run replays exactly with
 * `npm run soak -- --seed SEED --steps STEPS`. The unit tests check that these steps still hold
 * what the choice below promises, so that a change to the generators cannot quietly empty it.
 */

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
 * namesake on a second backend are left to the soak: no seed of the first 120,000 holds every
 * operation in 8 steps.
 */
export const CI_SEED = 11521;
/** Sized to take no longer than the 8 steps of seed 260 took before the front-end moves. */
export const CI_STEPS = 8;
