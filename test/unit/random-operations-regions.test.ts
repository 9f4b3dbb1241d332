/**
 * The harness's explicit providers on two applications and its second stack's claim (regions.ts,
 * refused-ups.ts) on the model: when regional fleets are declared, when the refused drop of
 * `us-site` is tried, and that the platform invariant holds each application to the devices
 * declared on it — a device of one application found on the other, or missing, is a violation
 * naming the second application.
 */
import { describe, expect, it } from "vitest";
import type { ControlDevice, EmulatorStateView } from "../../emulator";
import { CI_SEED, CI_STEPS } from "../random-operations/ci-budget";
import { platformMatches } from "../random-operations/invariants";
import { initialModel, nextWorlds, type Model } from "../random-operations/model";
import {
  devicesOn,
  nextRegional,
  refusedRegionalDrop,
  REGIONS_EVERY,
  type Application,
} from "../random-operations/regions";
import { claimsAtStep } from "../random-operations/refused-ups";
import { stepsOf } from "../random-operations/steps";
import type { World } from "../random-operations/world";

const MAIN_TAG = "pulumi-stack:harness-main/dev@k3m7q2za";

/** An application's platform holding exactly what `world` declares on it, tagged as the main stack's. */
function stateOn(world: World, application: Application): EmulatorStateView {
  const devices = devicesOn(world, application).map((d, i) => {
    const tag = [...(d.tags ?? []), MAIN_TAG];
    return {
      sn: d.sn,
      deviceId: String(500 + i),
      name: d.name,
      project: d.project,
      tag,
      properties: {},
    } as unknown as ControlDevice;
  });
  const records = application === "first" ? world.rps : [];
  const rpsRecords = records.map((r) => ({ ...r, applicationId: "1", createdAt: 0, updatedAt: 0 }));
  return { devices, rpsRecords, tasks: [] };
}

/** The model after the steps of `seed` that apply, each step's worlds in turn. */
function modelsOf(seed: number, count: number): { index: number; before: Model; after: Model }[] {
  let model = initialModel();
  const seen: { index: number; before: Model; after: Model }[] = [];
  for (const [i, step] of stepsOf(seed, count).entries()) {
    const worlds = nextWorlds(model, step, i + 1);
    if (!worlds) continue;
    const after = { ...model, ...worlds };
    seen.push({ index: i + 1, before: model, after });
    model = after;
  }
  return seen;
}

describe("explicit providers on two applications (regions.ts)", () => {
  it("declares both regions' fleets, tries the refused drop at the next step that runs, then drops them", () => {
    const steps = modelsOf(CI_SEED, CI_STEPS);
    const regionalAt = steps.map(({ after }) => (after.main.regional ?? []).map((f) => f.maxRemovals));
    // The CI budget's 8 steps all apply: declared at step 1, raised at 2 (after the refused drop), gone at 3.
    expect(regionalAt.slice(0, 4)).toEqual([[1, 1], [2, 2], [], []]);
    const drops = steps.filter(({ before, after }) => refusedRegionalDrop(before.main, after.main));
    expect(drops.map(({ index }) => index)).toEqual([2]);
    const dropped = drops[0] && refusedRegionalDrop(drops[0].before.main, drops[0].after.main);
    expect(dropped?.regional?.map((f) => f.region)).toEqual(["eu"]);
  });

  it("declares them only at an index of 1 modulo REGIONS_EVERY", () => {
    const empty = initialModel().main;
    expect(nextRegional(empty, REGIONS_EVERY + 1)).toHaveLength(2);
    expect(nextRegional(empty, 2)).toEqual([]);
    expect(nextRegional(empty, REGIONS_EVERY)).toEqual([]);
  });

  it("puts eu's devices on the first application and us's on the second", () => {
    const world = { ...initialModel().main, regional: nextRegional(initialModel().main, 1) };
    expect(devicesOn(world, "second").map((d) => d.sn)).toEqual(["2400000F0000", "2400000F0001"]);
    expect(devicesOn(world, "first").map((d) => d.sn)).toEqual(
      expect.arrayContaining(["2400000E0000", "2400000E0001"]),
    );
  });

  it("holds each application to its own devices", () => {
    const world = { ...initialModel().main, regional: nextRegional(initialModel().main, 1) };
    expect(platformMatches(stateOn(world, "first"), [world])).toEqual([]);
    expect(platformMatches(stateOn(world, "second"), [world], "second")).toEqual([]);
    // us-site's devices written to the first application instead of the second.
    const misplaced = stateOn(world, "first");
    misplaced.devices.push(...stateOn(world, "second").devices);
    expect(platformMatches(misplaced, [world])).toEqual([
      "platform = declared: 2400000F0000 (deviceId 500) is on the platform, declared nowhere",
      "platform = declared: 2400000F0001 (deviceId 501) is on the platform, declared nowhere",
    ]);
    expect(platformMatches({ devices: [], rpsRecords: [], tasks: [] }, [world], "second")).toEqual([
      "platform = declared (second application): 2400000F0000 is declared but not on the platform",
      "platform = declared (second application): 2400000F0001 is declared but not on the platform",
    ]);
  });
});

describe("the second stack's claim (refused-ups.ts)", () => {
  it("is tried at the CI budget's step 5 and every 8th step from it", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 13, 21].filter(claimsAtStep)).toEqual([5, 13, 21]);
  });
});
