/**
 * The harness's invariants on what the emulator cannot be made to hold (a serial number twice) and
 * on the model's own rules: a world stays valid after any change, a deviceId may change only where
 * the step deleted the device out of band, and a stack's state matches the declaration only with
 * each resource on its front-end and under its parent. The e2e file breaks the rest on purpose.
 */
import { describe, expect, it } from "vitest";
import type { ControlDevice, EmulatorStateView, RpsRecord } from "../../emulator";
import { applyChange } from "../random-operations/changes";
import { tokenOf, type Kind } from "../e2e/support/front-ends";
import type { StackExport, StackResource } from "../e2e/support/pulumi-project";
import { idsKept, platformIds, platformMatches, stateMatches } from "../random-operations/invariants";
import { stepsOf } from "../random-operations/steps";
import {
  configSerials,
  declaredDevices,
  fleetKey,
  frontsOf,
  initialWorld,
  otherFront,
  PARENT_TYPES,
  type Placement,
  type World,
} from "../random-operations/world";

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
    // What the provider writes besides the declared tags: the owner tag of the stack (main) declaring it.
    tag: [...(decl.tags ?? []), "pulumi-stack:harness-main/dev@k3m7q2za"],
  }));
  const rps = world.rps.map((r) => record(r.sn, r.profileUrl));
  return { devices: [...devices, ...extra], rpsRecords: [...rps, ...records], tasks: [] };
}

describe("random-operations invariants", () => {
  const world = initialWorld();

  it("accept a platform that holds exactly the declaration", () => {
    expect(platformMatches(stateOf(world), [world])).toEqual([]);
  });

  it("report a device without the owner tag of the stack declaring it, or with another's", () => {
    const state = stateOf(world);
    const [first, second] = state.devices;
    if (!first || !second) throw new Error("the initial world declares devices");
    first.tag = (first.tag ?? []).filter((tag) => !tag.startsWith("pulumi-stack:"));
    second.tag = [...(second.tag ?? []).slice(0, -1), "pulumi-stack:harness-second/dev@k3m7q2za"];
    expect(platformMatches(state, [world])).toEqual([
      `owner tag: ${first.sn} carries [], the stack declaring it is pulumi-stack:harness-main/dev`,
      `owner tag: ${second.sn} carries ["pulumi-stack:harness-second/dev@k3m7q2za"], the stack declaring it is pulumi-stack:harness-main/dev`,
    ]);
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
      // Fleets are one resource per name and parent; the model's fields stay out of the devices.
      const keys = current.fleets.map(fleetKey);
      expect(new Set(keys).size).toBe(keys.length);
      for (const fleet of current.fleets)
        for (const d of fleet.devices)
          for (const field of ["front", "twin", "parent"]) expect(d).not.toHaveProperty(field);
    }
  });
});

/** The stack export of a stack that deployed `world` exactly, as the engine writes URNs. */
function exportOf(world: World, ids: Map<string, string>): StackExport {
  const resource = (
    placement: Placement,
    kind: Kind,
    name: string,
    outputs: Record<string, unknown>,
    parent?: string,
  ) =>
    frontsOf(placement).map((front): StackResource => {
      const type = tokenOf(front, kind);
      const qualified = parent === undefined ? type : `${parent}$${type}`;
      return { urn: `urn:pulumi:dev::harness-main::${qualified}::${name}`, type, outputs };
    });
  const idOf = (sn: string) => ids.get(sn.toUpperCase()) ?? "";
  return {
    deployment: {
      resources: [
        ...world.fleets.flatMap((f) =>
          resource(
            f,
            "DeviceFleet",
            f.name,
            { deviceIds: Object.fromEntries(f.devices.map((d) => [d.sn, idOf(d.sn)])) },
            f.parent && PARENT_TYPES[f.parent],
          ),
        ),
        ...world.devices.flatMap((d) =>
          resource(d, "Device", d.resource, { sn: d.sn }).map((r) => ({ ...r, id: idOf(d.sn) })),
        ),
        ...world.rps.flatMap((r) => resource(r, "RpsProfile", r.resource, {})),
        ...world.configs.flatMap((c) =>
          resource(c, "DeviceConfig", c.resource, { deviceIds: configSerials(world, c).map(idOf) }),
        ),
      ],
    },
  };
}

describe("a stack's state against the declaration", () => {
  const world = initialWorld();
  const ids = platformIds(stateOf(world));

  it("matches when each resource is on its front-end and under its parent, a twin on both", () => {
    expect(stateMatches(exportOf(world, ids), world, ids, "main")).toEqual([]);
    const twinned = structuredClone(world);
    for (const fleet of twinned.fleets) fleet.twin = true;
    expect(stateMatches(exportOf(twinned, ids), twinned, ids, "main")).toEqual([]);
  });

  it("names a resource on the other front-end, and a fleet under the other parent", () => {
    const moved = structuredClone(world);
    const device = moved.devices[0];
    const fleet = moved.fleets[0];
    if (!device || !fleet) throw new Error("the initial world declares Devices and fleets");
    device.front = otherFront(device.front);
    delete fleet.parent;
    const violations = stateMatches(exportOf(moved, ids), world, ids, "main");
    const mismatch = violations.filter((v) => v.startsWith("state = declared"));
    expect(mismatch).toEqual([
      "state = declared: main state has undeclared [dynamic DeviceFleet sensors, plugin Device dev-5], " +
        "lacks declared [dynamic Device dev-5, dynamic DeviceFleet warehouse/sensors]",
    ]);
    // The root fleet's devices are no declared fleet's: each is named.
    expect(violations).toContain("state ids: main dynamic DeviceFleet sensors holds undeclared 2400000A0000");
  });

  it("names a fleet whose state lacks a declared device, whichever its parent", () => {
    const state = exportOf(world, ids);
    const office = state.deployment.resources?.find((r) => r.urn.includes(`${PARENT_TYPES.office}$`));
    if (!office?.outputs) throw new Error("the office fleet is in state");
    office.outputs.deviceIds = {};
    expect(stateMatches(state, world, ids, "main")).toEqual([
      "state ids: main plugin DeviceFleet office/sensors lacks declared 2400000A0003",
      "state ids: main plugin DeviceFleet office/sensors lacks declared 2400000A0004",
    ]);
  });
});
