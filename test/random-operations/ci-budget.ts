/**
 * The fixed budget `npm test` gives the random-operations harness (test/e2e/random-operations.test.ts):
 * a seed and a number of steps — a count, not a time limit, so the run replays exactly with
 * `npm run soak -- --seed SEED --steps STEPS`. The unit tests check that these steps still hold
 * what the choice below promises, so that a change to the generators cannot quietly empty it.
 */

/**
 * Chosen because all of its first 8 steps apply and they hold: a fleet moved to the other
 * front-end in one `up` (with a kill at an add), both `up`s of a split move (a DeviceConfig), a fleet
 * moved under another parent and a serial number moved between the two same-named fleets (with a
 * kill at the first write), the second stack at the same time twice (once moving its fleet to the
 * other front-end), faults and an out-of-band delete. By their numbers (regions.ts,
 * refused-ups.ts), steps 1–3 hold the explicit providers on two applications (step 2 the refused
 * drop of `us-site`) and step 5 the second stack's claim on a main stack's serial number.
 */
export const CI_SEED = 21773;
/** Sized to take no longer than the 8 steps of seed 260 took before the front-end moves. */
export const CI_STEPS = 8;
