/**
 * The plan of a DeviceFleet (pure): adds, updates (project changes too), removals, case-only changes, and
 * its preview message; the checks of its inputs: entries by the Device rules, duplicates,
 * settings, maxRemovals.
 */
import { describe, expect, it } from "vitest";
import { checkFleetInputs, type FleetEntries } from "../../../provider/device-fleet/inputs";
import { describeNewFleet, describePlan } from "../../../provider/device-fleet/message";
import { planChanges, planFleet } from "../../../provider/device-fleet/plan";
import { FleetLedger } from "../../../provider/device-fleet/state";
import { UNKNOWN } from "../../../provider/shared/input-checks";

const A = "240000A10001";
const B = "240000A10002";
const C = "240000A10003";
const D = "240000A10004";

/** A fleet that manages A, B and C as given. */
function ledgerOf(applied: FleetEntries): FleetLedger {
  const ledger = new FleetLedger();
  Object.entries(applied).forEach(([sn, entry], i) => ledger.record(sn, `17350000000000000${10 + i}`, entry));
  return ledger;
}

const applied: FleetEntries = {
  [A]: { name: "lobby", tags: ["x"] },
  [B]: { name: "server-room", project: "p" },
  [C]: { name: "warehouse-humidity" },
};

describe("planFleet", () => {
  it("costs nothing for devices declared as they are", () => {
    const plan = planFleet(ledgerOf(applied), applied);
    expect(plan).toEqual({ adds: [], updates: [], removals: [], unchanged: 3, marks: [], ownerReads: [] });
    expect(planChanges(plan)).toBe(false);
  });

  it("adds new serial numbers, updates changed ones with their fields, removes missing ones", () => {
    const plan = planFleet(ledgerOf(applied), {
      [A]: { name: "lobby", tags: ["x", "y"] },
      [C]: { name: "warehouse-humidity-2", description: "d" },
      [D]: { name: "new" },
    });
    expect(plan.adds).toEqual([D]);
    expect(plan.updates).toEqual([
      { sn: A, fields: ["tags"] },
      { sn: C, fields: ["name", "description"] },
    ]);
    expect(plan.removals).toEqual([B]);
    expect(plan.unchanged).toBe(0);
  });

  it("updates a device whose project changes or is blanked, with one PUT: no removal, no add", () => {
    const plan = planFleet(ledgerOf(applied), {
      ...applied,
      [A]: { name: "lobby", tags: ["x"], project: "q" },
      [B]: { name: "server-room" },
    });
    expect(plan).toEqual({
      adds: [],
      updates: [
        { sn: A, fields: ["project"] },
        { sn: B, fields: ["project"] },
      ],
      removals: [],
      unchanged: 1,
      marks: [],
      ownerReads: [],
    });
  });

  it("shows a project change in the plan message as an update", () => {
    const ledger = ledgerOf(applied);
    const declared = { ...applied, [B]: { name: "server-room" } };
    expect(describePlan("f", planFleet(ledger, declared), ledger, declared, "delete")).toBe(
      `DeviceFleet f: 1 to update (${B}: project "p" → (none)), 2 unchanged`,
    );
  });

  it("treats a serial number in another case as the same device, and no project like an empty one", () => {
    const plan = planFleet(ledgerOf(applied), {
      [A.toLowerCase()]: { name: "lobby", tags: ["x"] },
      [B]: { name: "server-room", project: "p" },
      [C]: { name: "warehouse-humidity", project: "", description: "", tags: [] },
    });
    expect(planChanges(plan)).toBe(false);
  });

  it("sees a TSL version as a change (the platform does not report it, the fleet remembers it)", () => {
    const plan = planFleet(ledgerOf(applied), {
      ...applied,
      [C]: { name: "warehouse-humidity", tslVersion: "1.1.0" },
    });
    expect(plan.updates).toEqual([{ sn: C, fields: ["tslVersion"] }]);
  });
});

describe("the plan message", () => {
  it("counts each category, shows what changes, and at most 20 serial numbers each", () => {
    const many: FleetEntries = Object.fromEntries(
      Array.from({ length: 25 }, (_, i) => [`2400000B${String(i).padStart(4, "0")}`, { name: `n${i}` }]),
    );
    const ledger = ledgerOf(applied);
    const { [B]: _removed, ...rest } = applied;
    const declared: FleetEntries = { ...rest, [C]: { name: "warehouse-humidity-2" }, ...many };
    const message = describePlan("site-a", planFleet(ledger, declared), ledger, declared, "delete");
    expect(message).toMatch(/^DeviceFleet site-a: 25 to add \(2400000B0000, .*2400000B0019 and 5 more\)/);
    expect(message).toContain(`1 to update (${C}: name "warehouse-humidity" → "warehouse-humidity-2")`);
    expect(message).toContain(`1 to remove (${B})`);
    expect(message).toMatch(/, 1 unchanged$/);
  });

  it("says release instead of remove when removed devices stay on the platform", () => {
    const ledger = ledgerOf(applied);
    const message = describePlan(
      "f",
      planFleet(ledger, { [A]: { name: "lobby", tags: ["x"] } }),
      ledger,
      {},
      "release",
    );
    expect(message).toContain("2 to release (left on the platform)");
  });

  it("tells a new fleet how many devices it will adopt", () => {
    expect(describeNewFleet("site-b", applied, { onPlatform: 2, unchanged: 1, otherProject: [] })).toBe(
      "DeviceFleet site-b: 3 to add: 2 already on the platform will be adopted (1 unchanged, 1 updated), 1 new",
    );
    expect(describeNewFleet("site-b", applied, { onPlatform: 2, unchanged: 0, otherProject: [B] })).toBe(
      `DeviceFleet site-b: 3 to add: 2 already on the platform will be adopted (0 unchanged, 2 updated; 1 of them retagged from another project (${B})), 1 new`,
    );
    expect(
      describeNewFleet("site-b", applied, { onPlatform: 2, unchanged: 0, otherProject: [], refused: true }),
    ).toBe(
      "DeviceFleet site-b: 3 to add: 2 already on the platform cannot be adopted (adoptExisting: false), 1 new",
    );
    expect(describeNewFleet("site-b", { [A]: { name: "lobby" } })).toBe(
      `DeviceFleet site-b: 1 to add (${A})`,
    );
  });
});

describe("DeviceFleet check", () => {
  const news = (devices: unknown, extra: Record<string, unknown> = {}) => ({
    fleetName: "f",
    devices,
    ...extra,
  });

  it("keys the entries by serial number and keeps the settings", () => {
    const { inputs, failures } = checkFleetInputs(
      {},
      news(
        [
          { sn: A, name: "a", tags: ["t"] },
          { sn: B, name: "b" },
        ],
        { onRemove: "release", concurrency: 8 },
      ),
    );
    expect(failures).toEqual([]);
    expect(inputs).toEqual({
      fleetName: "f",
      entries: { [A]: { name: "a", tags: ["t"] }, [B]: { name: "b" } },
      onRemove: "release",
      concurrency: 8,
    });
  });

  it("checks each entry by the Device rules, naming its index and serial number", () => {
    const { failures } = checkFleetInputs(
      {},
      news([
        { sn: A, name: " a" },
        { sn: "12", name: "b", colour: 1 },
      ]),
    );
    expect(failures.map((f) => f.reason)).toEqual([
      `DeviceFleet.devices[0].name (sn ${A}) must not start or end with spaces (the platform compares names exactly), got " a"`,
      "DeviceFleet.devices[1].colour (sn 12) is not a property of a DeviceFleet device; expected one of: sn, name, description, project, tags, tslVersion",
      'DeviceFleet.devices[1].sn (sn 12) must be 12 to 16 hex digits, got "12"',
    ]);
  });

  it("refuses a serial number listed twice, in any case", () => {
    const { failures } = checkFleetInputs(
      {},
      news([
        { sn: A, name: "a" },
        { sn: A.toLowerCase(), name: "b" },
      ]),
    );
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ property: "devices[1].sn" });
    expect(failures[0]?.reason).toMatch(/repeats the serial number of devices\[0\]/);
  });

  it("refuses bad settings", () => {
    const { failures } = checkFleetInputs(
      {},
      news([], { concurrency: 0, onRemove: "keep", maxRemovals: -1, adoptExisting: "no", devicez: [] }),
    );
    expect(failures.map((f) => f.property).sort()).toEqual(
      ["adoptExisting", "concurrency", "devicez", "maxRemovals", "onRemove"].sort(),
    );
  });

  it("fails at preview when an update would remove more devices than maxRemovals, naming the count", () => {
    const olds = { fleetName: "f", entries: applied };
    const { failures } = checkFleetInputs(olds, news([{ sn: A, name: "lobby" }], { maxRemovals: 1 }));
    expect(failures).toHaveLength(1);
    // Reported on maxRemovals: the engine prints the failing property's value, and not a whole fleet.
    expect(failures[0]?.property).toBe("maxRemovals");
    expect(failures[0]?.reason).toMatch(
      new RegExp(
        `^DeviceFleet\\.devices would remove 2 devices from fleet f \\(${B}, ${C}\\), more than maxRemovals 1`,
      ),
    );
    expect(checkFleetInputs(olds, news([{ sn: A, name: "lobby" }], { maxRemovals: 2 })).failures).toEqual([]);
  });

  it("leaves a list whose serial numbers are not known yet unknown", () => {
    const { inputs, failures } = checkFleetInputs({}, news([{ sn: UNKNOWN, name: "a" }]));
    expect(failures).toEqual([]);
    expect(inputs.entries).toBe(UNKNOWN);
  });
});
