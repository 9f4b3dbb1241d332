/**
 * The pace's arithmetic (sdk/pace-curve.ts) at its edges: the floor of 0.5 requests a second holds
 * after every step, the settle of a plateau included.
 */
import { describe, expect, it } from "vitest";
import { initialPaceState, MIN_RATE } from "../../../sdk";
import { decrease, settlePlateau } from "../../../sdk/pace-curve";

describe("the pace's arithmetic", () => {
  it("keeps the floor when an episode settles at what passed in its full window (0.5: 0.45 before)", () => {
    const state = initialPaceState();
    decrease(state, 1_000, 10);
    // Nothing but the floor passed in the second before the episode's latest refusal.
    state.refusedWindowPassed = 0.5;
    settlePlateau(state);
    expect(state.plateau).toBe(MIN_RATE);
    expect(state.rate).toBe(MIN_RATE);
  });
});
