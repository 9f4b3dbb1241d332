import { beforeEach, describe, expect, it } from "vitest";
import {
  claimDevice,
  declarationsSettled,
  declareSerials,
  otherOwner,
  releaseClaim,
  resetOwnership,
} from "../../../provider/guardrails/ownership";

const DEVICE = { kind: "Device" } as const;
const fleet = (name: string) => ({ kind: "DeviceFleet", fleet: name }) as const;
const device = { deviceId: "1735000000000000001", sn: "240000A10001" };

beforeEach(() => resetOwnership());

describe("one device, one owner", () => {
  it("finds nobody when nothing claimed or declared the device", () => {
    expect(otherOwner(device, DEVICE)).toBeUndefined();
  });

  it("a claim by any Device counts against a deleting Device (a Device never creates and deletes in one run)", () => {
    claimDevice(device.deviceId, device.sn, DEVICE);
    expect(otherOwner(device, DEVICE)).toMatchObject({ kind: "Device" });
    releaseClaim(device.deviceId);
    expect(otherOwner(device, DEVICE)).toBeUndefined();
  });

  it("a fleet's own claims and declarations do not stop its own deletes; another fleet's do", () => {
    claimDevice(device.deviceId, device.sn, fleet("a"));
    expect(otherOwner(device, fleet("a"))).toBeUndefined();
    expect(otherOwner(device, fleet("b"))).toMatchObject({ fleet: "a" });
  });

  it("declarations match serial numbers without regard to case, in any project (a project is a tag)", () => {
    declareSerials(DEVICE, [{ sn: device.sn.toLowerCase(), project: "p" }]);
    expect(otherOwner(device, fleet("a"))).toMatchObject({ kind: "Device" });
    const other = { deviceId: "1735000000000000002", sn: "240000A10002" };
    declareSerials(fleet("b"), [{ sn: other.sn, project: "q" }]);
    expect(otherOwner(other, DEVICE)).toMatchObject({ fleet: "b" });
    expect(otherOwner(other, fleet("b"))).toBeUndefined();
  });

  it("two fleets of one name under different parents are two owners, also where one check carried no URN", () => {
    const urn = (parent: string) =>
      `urn:pulumi:dev::site::acme:site:${parent}$pulumi-nodejs:dynamic/devplatform:DeviceFleet::sensors`;
    const warehouse = { ...fleet("sensors"), urn: urn("Warehouse") };
    const office = { ...fleet("sensors"), urn: urn("Office") };
    declareSerials(warehouse, [{ sn: device.sn }]);
    expect(otherOwner(device, office)).toMatchObject({ urn: warehouse.urn });
    // The dynamic provider host's first check comes before this package is loaded to note its URN:
    // that fleet's declaration names no URN. The office fleet, whose removal carries its own, must
    // not take the warehouse fleet's declaration for its own because the names match.
    resetOwnership();
    declareSerials(fleet("sensors"), [{ sn: device.sn }]);
    expect(otherOwner(device, office)).toMatchObject({ fleet: "sensors" });
  });

  it("a fleet's new declaration replaces its previous one", () => {
    declareSerials(fleet("a"), [{ sn: device.sn }]);
    expect(otherOwner(device, DEVICE)).toMatchObject({ fleet: "a" });
    declareSerials(fleet("a"), [{ sn: "240000A10002" }]);
    expect(otherOwner(device, DEVICE)).toBeUndefined();
  });
});

describe("declarationsSettled", () => {
  it("returns at once when nothing was declared recently", async () => {
    const started = Date.now();
    await declarationsSettled(200);
    expect(Date.now() - started).toBeLessThan(100);
  });

  it("waits for a quiet period after the last declaration, and no longer than its limit", async () => {
    let clock = 1_000;
    declareSerials(DEVICE, [{ sn: device.sn }]); // at real time; the fake clock below is far ahead
    const waited = declarationsSettled(300, 50, () => (clock += 10));
    await expect(waited).resolves.toBeUndefined();
  });
});

describe("owners by full URN", () => {
  const warehouse = "urn:pulumi:dev::p::acme:site:Warehouse$devplatform:index:DeviceFleet::sensors";
  const office = "urn:pulumi:dev::p::acme:site:Office$devplatform:index:DeviceFleet::sensors";
  const sensors = (urn: string) => ({ kind: "DeviceFleet", fleet: "sensors", urn }) as const;

  it("two fleets of one name under different parents are two owners", () => {
    // The Office fleet declares the serial number the Warehouse fleet removes in the same up.
    declareSerials(sensors(office), [{ sn: device.sn }]);
    expect(otherOwner(device, sensors(warehouse))).toMatchObject({ urn: office });
    expect(otherOwner(device, sensors(office))).toBeUndefined();
  });

  it("a fleet's new declaration replaces only its own previous one, not a same-named fleet's", () => {
    declareSerials(sensors(office), [{ sn: device.sn }]);
    declareSerials(sensors(warehouse), [{ sn: device.sn }]);
    declareSerials(sensors(warehouse), []);
    expect(otherOwner(device, sensors(warehouse))).toMatchObject({ urn: office });
  });

  it("a Device's claim counts against a deleting Device even of the same URN (a replacement that creates first)", () => {
    const a = { kind: "Device", urn: "urn:pulumi:dev::p::devplatform:index:Device::a" } as const;
    claimDevice(device.deviceId, device.sn, a);
    expect(otherOwner(device, a)).toMatchObject({ urn: a.urn });
  });

  it("a fleet's whole delete counts a same-URN fleet's declaration as another's (its replacement)", () => {
    declareSerials(sensors(office), [{ sn: device.sn }]);
    expect(otherOwner(device, sensors(office))).toBeUndefined();
    expect(otherOwner(device, { ...sensors(office), leaving: true })).toMatchObject({ urn: office });
  });
});
