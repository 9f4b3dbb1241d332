/**
 * The harness's invariants on what the emulator cannot be made to hold (a serial number twice) and
 * on the model's own rules: a world stays valid after any change, and a deviceId may change only
 * where the step deleted the device out of band. The e2e file breaks the rest on purpose.
 */
import { describe, expect, it } from "vitest";
import type { ControlDevice, EmulatorStateView, RpsRecord } from "../../emulator";
import { applyChange } from "../random-operations/changes";
import { idsKept, platformMatches } from "../random-operations/invariants";
import { stepsOf } from "../random-operations/steps";
import { configSerials, declaredDevices, initialWorld, type World } from "../random-operations/world";

function device(sn: string, deviceId: string, name: string): ControlDevice {
  return { sn, deviceId, name, tag: [], properties: {} } as unknown as ControlDevice;
}

function record(sn: string, profileUrl: string): RpsRecord {
  return { sn, profileUrl, applicationId: "1", createdAt: 0, updatedAt: 0 };
}

function stateOf(world: World, extra: ControlDevice[] = [], records: RpsRecord[] = []): EmulatorStateView {
  const devices = declaredDevices(world).map(({ decl }, i) => ({
    ...device(decl.sn, String(100 + i), decl.name),
    project: decl.project,
    tag: decl.tags ?? [],
  }));
  const rps = world.rps.map((r) => record(r.sn, r.profileUrl));
  return { devices: [...devices, ...extra], rpsRecords: [...rps, ...records], tasks: [] };
}

describe("random-operations invariants", () => {
  const world = initialWorld();

  it("accept a platform that holds exactly the declaration", () => {
    expect(platformMatches(stateOf(world), [world])).toEqual([]);
  });

  it("report a device or an RPS record that is on the platform twice", () => {
    const first = declaredDevices(world)[0]?.decl;
    const rps = world.rps[0];
    if (!first || !rps) throw new Error("the initial world declares devices and records");
    const state = stateOf(world, [device(first.sn, "999", first.name)], [record(rps.sn, rps.profileUrl)]);
    const violations = platformMatches(state, [world]);
    expect(violations).toContain(`duplicate device: ${first.sn} is on the platform twice`);
    expect(violations).toContain(`duplicate RPS record: ${rps.sn}`);
  });

  it("allow a new deviceId only where the step deleted the device out of band", () => {
    const before = new Map([
      ["A", "1"],
      ["B", "2"],
      ["C", "3"],
    ]);
    const after = new Map([
      ["A", "1"],
      ["B", "5"],
      ["C", "6"],
    ]);
    expect(idsKept(before, after, new Set(["C"]))).toEqual(["deviceId kept: B was deviceId 2, is now 5"]);
  });

  it("keep every world valid: one configuration owner per device, no configuration without devices", () => {
    let current = world;
    for (const step of stepsOf(7, 300)) {
      if (step.kind === "out-of-band") continue;
      current = applyChange(current, step.change) ?? current;
      const serials = current.configs.map((c) => configSerials(current, c));
      expect(serials.every((s) => s.length > 0)).toBe(true);
      const all = serials.flat();
      expect(new Set(all).size).toBe(all.length);
      // A fleet entry carries only the device's own fields (a Device's resource name stays behind).
      for (const fleet of current.fleets)
        for (const d of fleet.devices) expect(Object.hasOwn(d, "resource")).toBe(false);
      const sns = declaredDevices(current).map(({ decl }) => decl.sn);
      expect(new Set(sns).size).toBe(sns.length);
    }
  });
});
