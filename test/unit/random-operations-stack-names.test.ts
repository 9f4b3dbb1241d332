/**
 * What people do to stacks in the harness (stack-names.ts), on the model: a rename and an
 * `ownerTag` change move the owner tag the invariants expect on the main stack's devices, a removed
 * second stack's successor takes over its devices by name, and the actions that need devices do not
 * apply without them. The owner-tag invariant finds a device still carrying the tag of the stack's
 * earlier name or prefix.
 */
import { describe, expect, it } from "vitest";
import type { ControlDevice, EmulatorStateView } from "../../emulator";
import { ownerTagsOf, platformMatches } from "../random-operations/invariants";
import { initialModel, nextWorlds } from "../random-operations/model";
import { INITIAL_NAMES, OTHER_PREFIX, STACK_ACTIONS } from "../random-operations/stack-names";
import type { Step } from "../random-operations/steps";
import { declaredDevices, initialWorld, type World } from "../random-operations/world";

const stackStep = (action: Extract<Step, { kind: "stack" }>["action"]): Step => ({
  kind: "stack",
  action,
  pick: 0,
  change: { kind: "bump-version", pick: 0 },
});

function stateOf(world: World, tag: string): EmulatorStateView {
  const devices = declaredDevices(world).map(({ decl }, i) => ({
    sn: decl.sn,
    deviceId: String(100 + i),
    name: decl.name,
    project: decl.project,
    tag: [...(decl.tags ?? []), tag],
    properties: {},
  }));
  return { devices: devices as unknown as ControlDevice[], rpsRecords: [], tasks: [] };
}

describe("stack actions on the model", () => {
  it("rename and ownerTag move the main stack's expected owner tag; rm-takeover names the removed stack", () => {
    const model = initialModel();
    expect(nextWorlds(model, stackStep("rename"), 3)?.names).toEqual({ ...INITIAL_NAMES, main: "renamed-3" });
    expect(nextWorlds(model, stackStep("owner-tag"), 4)?.names.mainPrefix).toBe(OTHER_PREFIX);
    const taken = nextWorlds(model, stackStep("rm-takeover"), 5);
    expect(taken?.names.second).toBe("new-5");
    expect(taken?.second.fleets[0]?.takeOverFrom).toEqual(["harness-second/dev"]);
    expect(ownerTagsOf({ main: "renamed-3", second: "new-5", mainPrefix: OTHER_PREFIX })).toEqual([
      "team-main:harness-main/renamed-3",
      "pulumi-stack:harness-second/new-5",
    ]);
  });

  it("import and rm-takeover need the second stack's devices; every action is drawn", () => {
    const model = initialModel();
    const empty = {
      ...model,
      second: { ...model.second, fleets: model.second.fleets.map((f) => ({ ...f, devices: [] })) },
    };
    expect(nextWorlds(empty, stackStep("import"), 1)).toBeUndefined();
    expect(nextWorlds(empty, stackStep("rm-takeover"), 1)).toBeUndefined();
    expect(STACK_ACTIONS).toEqual(["rename", "owner-tag", "namesake", "import", "rm-takeover"]);
  });

  it("the owner-tag invariant finds a device still tagged with the stack's earlier name or prefix", () => {
    const world = { ...initialWorld(), rps: [] };
    const renamed = ownerTagsOf({ ...INITIAL_NAMES, main: "renamed-3" });
    expect(
      platformMatches(
        stateOf(world, "pulumi-stack:harness-main/renamed-3@k3m7q2za"),
        [world],
        "first",
        renamed,
      ),
    ).toEqual([]);
    const stale = platformMatches(
      stateOf(world, "pulumi-stack:harness-main/dev@k3m7q2za"),
      [world],
      "first",
      renamed,
    );
    expect(stale).toHaveLength(declaredDevices(world).length);
    expect(stale[0]).toMatch(
      /^owner tag: .* the stack declaring it is pulumi-stack:harness-main\/renamed-3$/,
    );
    const prefixed = ownerTagsOf({ ...INITIAL_NAMES, mainPrefix: OTHER_PREFIX });
    expect(
      platformMatches(stateOf(world, "pulumi-stack:harness-main/dev@k3m7q2za"), [world], "first", prefixed),
    ).toHaveLength(declaredDevices(world).length);
  });
});
