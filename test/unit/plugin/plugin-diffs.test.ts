/**
 * The plugin's diffs of every kind (pure): exactly the paths that change, what replaces, what stays
 * stable; and that each agrees with the dynamic front-end's diff, which comes from the same comparison.
 */
import { describe, expect, it } from "vitest";
import { diffConfig } from "../../../provider/device-config/changes";
import { deviceConfigDiff as deviceConfigPluginDiff } from "../../../provider/device-config/diff";
import { checkFleetInputs } from "../../../provider/device-fleet/inputs";
import { deviceFleetDiff as deviceFleetPluginDiff } from "../../../provider/device-fleet/diff";
import { FleetLedger } from "../../../provider/device-fleet/state";
import { deviceDiff as devicePluginDiff } from "../../../provider/device/diff";
import { dynamicOperations } from "../../../provider/dynamic/implementations";
import { propertyPath } from "../../../provider/core/diff";
import { rpsProfileDiff as rpsProfilePluginDiff } from "../../../provider/rps-profile/diff";
import { UNKNOWN, type Inputs } from "../../../provider/shared/input-checks";

// The dynamic front-end's answers (its diff: changes, replaces, deleteBeforeReplace).
const deviceImplementation = dynamicOperations.Device;

const ID = "1735000000000000010";
const device: Inputs = {
  sn: "240000A10001",
  name: "lobby",
  tags: ["x"],
  deviceId: ID,
  model: "TH-1",
  connectStatus: "ONLINE",
  electricity: 80,
};

describe("Device plugin diff", () => {
  it("changes nothing for the same declaration, whatever the status fields say", async () => {
    const diff = devicePluginDiff(
      ID,
      { ...device, connectStatus: "OFFLINE", electricity: 3 },
      {
        sn: "240000a10001",
        name: "lobby",
        tags: ["x"],
        description: undefined,
      },
    );
    expect(diff).toMatchObject({ changes: false, replaces: [], detailedDiff: {} });
    expect(diff.stables).toContain("deviceId");
  });

  it("updates each changed field in place and keeps deviceId and the hardware's facts stable", async () => {
    const news = { sn: device.sn, name: "lobby-2", description: "d", project: "p" };
    const diff = devicePluginDiff(ID, device, news);
    expect(diff.detailedDiff).toEqual({
      name: { kind: "UPDATE", inputDiff: true },
      description: { kind: "ADD", inputDiff: true },
      project: { kind: "ADD", inputDiff: true },
      tags: { kind: "DELETE", inputDiff: true },
    });
    expect(diff.replaces).toEqual([]);
    expect(diff.deleteBeforeReplace).toBe(false);
    expect(diff.stables).toEqual(expect.arrayContaining(["deviceId", "model", "sn"]));
    expect(diff.stables).not.toContain("connectStatus");
    const dynamic = await deviceImplementation.diff(ID, device, news);
    expect(dynamic).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });

  it("replaces on a new serial number, deleting first, with nothing stable", async () => {
    const news = { sn: "240000A10009", name: "lobby", tags: ["x"] };
    const diff = devicePluginDiff(ID, device, news);
    expect(diff).toMatchObject({
      changes: true,
      replaces: ["sn"],
      deleteBeforeReplace: true,
      stables: [],
      detailedDiff: { sn: { kind: "UPDATE_REPLACE", inputDiff: true } },
    });
    expect(await deviceImplementation.diff(ID, device, news)).toEqual({
      changes: true,
      replaces: ["sn"],
      deleteBeforeReplace: true,
    });
  });
});

describe("RpsProfile plugin diff", () => {
  const olds = { sn: "AC0000C30009", profileUrl: "https://a.example/p" };
  it("updates the URL in place, replaces on another serial number, ignores case", () => {
    expect(rpsProfilePluginDiff(olds, { ...olds, sn: "ac0000c30009" }).changes).toBe(false);
    expect(rpsProfilePluginDiff(olds, { ...olds, profileUrl: "https://b.example/p" })).toMatchObject({
      changes: true,
      replaces: [],
      stables: ["sn"],
      detailedDiff: { profileUrl: { kind: "UPDATE", inputDiff: true } },
    });
    expect(rpsProfilePluginDiff(olds, { ...olds, sn: "AC0000C30010" })).toMatchObject({
      replaces: ["sn"],
      deleteBeforeReplace: false,
      detailedDiff: { sn: { kind: "UPDATE_REPLACE", inputDiff: true } },
    });
  });
});

describe("DeviceConfig plugin diff", () => {
  const olds: Inputs = {
    deviceIds: [ID],
    properties: { reportInterval: 60, alarmThreshold: { high: 30 }, "alarmThreshold.low": 1 },
    method: "patch",
    taskIds: {},
  };

  it("is one path per property id: changed, added, removed; nothing for equal values in another shape", async () => {
    const news: Inputs = {
      deviceIds: [ID],
      properties: { reportInterval: "60", alarmThreshold: { high: 31 }, mode: 2 },
    };
    const diff = await deviceConfigPluginDiff(ID, olds, news);
    expect(diff.detailedDiff).toEqual({
      "properties.alarmThreshold": { kind: "UPDATE", inputDiff: true },
      'properties["alarmThreshold.low"]': { kind: "DELETE", inputDiff: true },
      "properties.mode": { kind: "ADD", inputDiff: true },
    });
    expect(diff).toMatchObject({ changes: true, replaces: [], stables: ["method", "taskIds"] });
    expect(diffConfig(olds, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect(
      (await deviceConfigPluginDiff(ID, olds, { deviceIds: [ID], properties: olds.properties })).changes,
    ).toBe(false);
  });

  it("replaces on a switch to profile, deleting first; owed work is an output change", async () => {
    const diff = await deviceConfigPluginDiff(ID, olds, { deviceIds: [ID], profile: { k: "v" } });
    expect(diff).toMatchObject({
      changes: true,
      replaces: ["profile"],
      deleteBeforeReplace: true,
      stables: [],
      detailedDiff: {
        properties: { kind: "DELETE_REPLACE", inputDiff: true },
        profile: { kind: "ADD_REPLACE", inputDiff: true },
      },
    });
    const owed = await deviceConfigPluginDiff(
      ID,
      { ...olds, pending: { [ID]: { keys: ["mode"] } } },
      {
        deviceIds: [ID],
        properties: olds.properties,
      },
    );
    expect(owed.detailedDiff).toEqual({ pending: { kind: "UPDATE", inputDiff: false } });
  });

  it("shows the whole map while its values are unknown (a preview)", async () => {
    const diff = await deviceConfigPluginDiff(ID, olds, { deviceIds: [ID], properties: UNKNOWN });
    expect(diff.detailedDiff).toEqual({ properties: { kind: "UPDATE", inputDiff: true } });
  });
});

/** The recorded state of a fleet of `count` devices (serial numbers 240000A00000…). */
function fleetState(count: number): {
  olds: Inputs;
  devices: { sn: string; name: string; tags?: string[] }[];
} {
  const ledger = new FleetLedger();
  const devices = Array.from({ length: count }, (_, i) => ({
    sn: `240000A${String(i).padStart(5, "0")}`,
    name: `device-${i}`,
    tags: ["site-a"],
  }));
  devices.forEach(({ sn, ...entry }, i) =>
    ledger.record(sn, `17350000000${String(i).padStart(8, "0")}`, entry),
  );
  return { olds: ledger.toOutputs("site-a", {}), devices };
}

/** The checked inputs of a fleet declaring `devices`, as the shared check answers them. */
function checked(devices: unknown[], settings: Inputs = {}): Inputs {
  const { inputs, failures } = checkFleetInputs({}, { fleetName: "site-a", devices, ...settings });
  expect(failures).toEqual([]);
  return inputs;
}

describe("DeviceFleet plugin diff", () => {
  it('of 2,000 devices with 3 renamed is exactly 3 paths devices["SN"].name, keeping deviceIds stable', async () => {
    const { olds, devices } = fleetState(2000);
    const renamed = [17, 1000, 1999];
    const news = devices.map((d, i) => (renamed.includes(i) ? { ...d, name: `${d.name}-renamed` } : d));
    const diff = await deviceFleetPluginDiff("site-a", olds, checked(news));
    expect(Object.keys(diff.detailedDiff).sort()).toEqual([
      'devices["240000A00017"].name',
      'devices["240000A01000"].name',
      'devices["240000A01999"].name',
    ]);
    expect(Object.values(diff.detailedDiff)).toEqual(Array(3).fill({ kind: "UPDATE", inputDiff: true }));
    expect(diff).toMatchObject({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect(diff.stables).toEqual(["deviceIds", "devices"]);
  });

  it("shows an added device as ADD, a removed one as DELETE, a changed setting by its name", async () => {
    const { olds, devices } = fleetState(3);
    const news = [devices[0], devices[1], { sn: "240000A10009", name: "new" }];
    const diff = await deviceFleetPluginDiff("site-a", olds, checked(news, { concurrency: 8 }));
    expect(diff.detailedDiff).toEqual({
      'devices["240000A10009"]': { kind: "ADD", inputDiff: true },
      'devices["240000A00002"]': { kind: "DELETE", inputDiff: true },
      concurrency: { kind: "ADD", inputDiff: true },
    });
    expect(diff.stables).toEqual([]);
  });

  it("changes nothing for the same devices in another order and serial numbers in another case", async () => {
    const { olds, devices } = fleetState(3);
    const news = [...devices].reverse().map((d) => ({ ...d, sn: d.sn.toLowerCase() }));
    expect(await deviceFleetPluginDiff("site-a", olds, checked(news))).toMatchObject({
      changes: false,
      detailedDiff: {},
    });
  });

  it("reads the entries under the program's name too (devices keyed by serial number)", async () => {
    const { olds, devices } = fleetState(2);
    const { entries, ...rest } = checked([devices[0], { ...devices[1], tags: [] }]);
    const diff = await deviceFleetPluginDiff("site-a", olds, { ...rest, devices: entries });
    expect(diff.detailedDiff).toEqual({
      'devices["240000A00001"].tags': { kind: "UPDATE", inputDiff: true },
    });
  });

  it("is one change of devices while the list is unknown", async () => {
    const { olds } = fleetState(2);
    const diff = await deviceFleetPluginDiff("site-a", olds, checked(UNKNOWN as unknown as unknown[]));
    expect(diff.detailedDiff).toEqual({ devices: { kind: "UPDATE", inputDiff: true } });
    expect(diff.changes).toBe(true);
  });
});

describe("propertyPath", () => {
  it('uses .key for identifiers and ["key"] for the rest, as the engine parses them', () => {
    expect(propertyPath("properties", "reportInterval")).toBe("properties.reportInterval");
    expect(propertyPath("properties", "alarmThreshold.high")).toBe('properties["alarmThreshold.high"]');
    expect(propertyPath("devices", "240000A10003", "name")).toBe('devices["240000A10003"].name');
  });
});
