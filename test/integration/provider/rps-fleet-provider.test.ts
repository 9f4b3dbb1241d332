/**
 * The RpsFleet implementation (issue #46) against a real emulator: a batch of RPS records created,
 * adopted without a write, one URL changed with one write, records removed (capped), read back by
 * the paged listing, a partial failure recording exactly what was done, one serial number one owner
 * between batches and RpsProfiles, and the handover of records to a DeviceFleet.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { deviceFleetImplementation as fleet } from "../../../provider/device-fleet/provider";
import { withLogSink } from "../../../provider/output/log";
import { platformClient } from "../../../provider/platform-access/platform-client";
import { resetOwnership } from "../../../provider/guardrails/ownership";
import { resetRemovalBudget } from "../../../provider/guardrails/removal-budget";
import { resetRpsOwnership } from "../../../provider/guardrails/rps-ownership";
import { rpsFleetImplementation as batch } from "../../../provider/rps-fleet/provider";
import { rpsProfileImplementation } from "../../../provider/rps-profile/provider";
import { deviceImplementation } from "../../../provider/device/provider";
import { invalidateRpsListing } from "../../../provider/rps-profile/listing";
import type { Inputs } from "../../../provider/shared/input-checks";
import { PartialSuccessError } from "../../../provider/shared/errors";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { writesOf } from "../../e2e/support/platform-writes";
import { useConfiguredEmulator } from "./support/configured-emulator";

const env = useConfiguredEmulator();

const URL_A = "https://rps.example.com/profiles/a";
const URL_B = "https://rps.example.com/profiles/b";

/** A new deployment: nothing declared, nothing charged. */
beforeEach(() => {
  resetOwnership();
  resetRpsOwnership();
  resetRemovalBudget();
});

const records = (serials: readonly string[], url = URL_A) => serials.map((sn) => ({ sn, profileUrl: url }));

/** The messages the operations tell while `operation` runs. */
async function told<T>(operation: () => Promise<T>): Promise<{ result: T; messages: string[] }> {
  const messages: string[] = [];
  const note = async (message: string) => void messages.push(message);
  const result = await withLogSink({ info: note, warn: note, status: async () => {} }, operation);
  return { result, messages };
}

async function counters() {
  return (await env.emulator.control.counters()).byRoute;
}

/** A batch deployed with `list`: its checked inputs and state. */
async function deployed(name: string, list: { sn: string; profileUrl: string }[], settings: Inputs = {}) {
  const { inputs, failures } = await batch.check(
    {},
    { fleetName: name, records: JSON.stringify(list), ...settings },
  );
  expect(failures).toEqual([]);
  return { inputs, outs: (await batch.create(inputs)).outs };
}

/** The check of `list` after `previous`, as a preview of the next `up` runs it. */
function checkNext(
  previous: { inputs: Inputs },
  list: { sn: string; profileUrl: string }[],
  settings: Inputs = {},
) {
  const name = previous.inputs.fleetName as string;
  return batch.check(previous.inputs, { fleetName: name, records: list, ...settings });
}

describe("RpsFleet check", () => {
  it("reports one failure per field, repeated serial numbers without regard to case, and bad settings", async () => {
    const [a, b] = serialNumbers(2, "AC") as [string, string];
    const { failures } = await batch.check(
      {},
      {
        fleetName: "bad",
        records: [
          { sn: a, profileUrl: URL_A },
          { sn: "12", profileUrl: "http://rps.example.com/x" },
          { sn: a.toLowerCase(), profileUrl: URL_A },
          { sn: b, profileUrl: "rps.example.com", extra: 1 },
        ],
        maxRemovals: -1,
      },
    );
    expect(failures.map((f) => f.property)).toEqual([
      "records[1].sn",
      "records[1].profileUrl",
      "records[2].sn",
      "records[3].extra",
      "records[3].profileUrl",
      "maxRemovals",
    ]);
    expect(failures[1]?.reason).toBe(
      'RpsFleet.records[1].profileUrl (sn 12) must be an https URL, got "http://rps.example.com/x"',
    );
    expect(failures[2]?.reason).toMatch(/repeats the serial number of records\[0\]/);
  });
});

describe("RpsFleet", () => {
  it("creates 150 records, then adopts them in a new batch without a write; a preview makes no request", async () => {
    const serials = serialNumbers(150, "AC");
    await env.emulator.control.resetCounters();
    const first = await deployed("shipment-1", records(serials));
    expect(Object.keys(first.outs.profileUrls as object)).toHaveLength(150);
    expect(writesOf(await counters())).toEqual({ "POST /rps/profile": 150 });

    await batch.delete("shipment-1", { ...first.outs, profileUrls: {} }); // forgotten, records kept
    resetOwnership();
    resetRpsOwnership();
    await env.emulator.control.resetCounters();
    const { result: checked } = await told(() =>
      batch.check({}, { fleetName: "shipment-2", records: records(serials) }),
    );
    expect(await counters()).toEqual({});
    const { messages } = await told(() => batch.create(checked.inputs));
    expect(writesOf(await counters())).toEqual({});
    const total = (await env.emulator.control.state()).rpsRecords.length;
    expect((await counters())["POST /rps/search"]).toBe(Math.ceil(total / 100));
    expect(messages).toContain(
      "RpsFleet shipment-2: adopted 150 records already on the platform without a write",
    );
  });

  it("deletes a batch with one DELETE a record and no other request; a record already gone counts as deleted", async () => {
    const serials = serialNumbers(120, "AD");
    const { outs } = await deployed("shipment-gone", records(serials));
    await env.emulator.control.resetCounters();
    await env.emulator.control.interleave({
      route: "DELETE /rps/{sn}",
      before: 1,
      deleteRpsRecords: [serials[119] as string],
    });
    await batch.delete("shipment-gone", outs);
    expect(await counters()).toEqual({ "DELETE /rps/{sn}": 120 });
    const left = (await env.emulator.control.state()).rpsRecords.map((r) => r.sn);
    expect(left.filter((sn) => serials.includes(sn))).toEqual([]);
  });

  it("changes one URL with one write, and an unchanged batch with none; the plan is one message", async () => {
    const serials = serialNumbers(30, "AC");
    const first = await deployed("one-url", records(serials));
    const changed = records(serials).map((r, i) => (i === 7 ? { ...r, profileUrl: URL_B } : r));
    const { inputs } = await checkNext(first, changed);
    await env.emulator.control.resetCounters();
    const { result: diff, messages } = await told(() => batch.diff("one-url", first.outs, inputs));
    expect(diff.detailedDiff).toEqual({ [`records["${serials[7]}"]`]: { kind: "UPDATE", inputDiff: true } });
    expect(messages).toEqual([
      `RpsFleet one-url: 1 to change (${serials[7]}: ${URL_A} → ${URL_B}), 29 unchanged`,
    ]);
    const { outs } = await batch.update("one-url", first.outs, inputs);
    expect(await counters()).toEqual({ "POST /rps/profile": 1 });
    expect((outs.profileUrls as Record<string, string>)[serials[7] as string]).toBe(URL_B);

    await env.emulator.control.resetCounters();
    expect((await batch.diff("one-url", outs, inputs)).changes).toBe(false);
    await batch.update("one-url", outs, inputs);
    expect(await counters()).toEqual({});
  });

  it("refuses removals over maxRemovals, and by default over half the batch, at check and at update, writing nothing", async () => {
    const serials = serialNumbers(6, "AC");
    const first = await deployed("capped", records(serials), { maxRemovals: 2 });
    const kept = records(serials.slice(0, 3));
    const { failures } = await checkNext(first, kept, { maxRemovals: 2 });
    expect(failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(
          /^RpsFleet capped would delete 3 RPS records \(.*\), more than maxRemovals 2;/,
        ),
      },
    ]);
    await env.emulator.control.resetCounters();
    const news = { ...first.inputs, entries: Object.fromEntries(kept.map((r) => [r.sn, r.profileUrl])) };
    await expect(batch.update("capped", first.outs, news)).rejects.toThrow(
      /more than maxRemovals 2; nothing was written/,
    );
    expect(writesOf(await counters())).toEqual({});

    const other = await deployed("emptied", records(serialNumbers(4, "AC")));
    const emptied = await checkNext(other, []);
    expect(emptied.failures[0]?.reason).toMatch(
      /^RpsFleet emptied would delete 4 of the 4 RPS records it manages/,
    );
    const within = await checkNext(other, records(Object.keys(other.outs.profileUrls as object).slice(0, 2)));
    expect(within.failures).toEqual([]);
  });

  it("reads the batch back by the paged listing: drift per record, a record gone on the platform forgotten", async () => {
    const serials = serialNumbers(120, "AC");
    const first = await deployed("refresh", records(serials));
    const client = await platformClient();
    await client.setRpsProfile({ sn: serials[3] as string, profileUrl: URL_B });
    await client.deleteRpsProfile(serials[4] as string);
    invalidateRpsListing();
    await env.emulator.control.resetCounters();
    const read = await batch.read("refresh", first.outs);
    const total = (await env.emulator.control.state()).rpsRecords.length;
    expect(await counters()).toEqual({ "POST /rps/search": Math.ceil(total / 100) });
    const entries = read.inputs?.entries as Record<string, string>;
    expect(Object.keys(entries)).toHaveLength(119);
    expect(entries[serials[3] as string]).toBe(URL_B);
    expect(entries[serials[4] as string]).toBeUndefined();
  });

  it("records exactly what was done when one record fails", async () => {
    const serials = serialNumbers(5, "AC");
    await (await platformClient()).addDevice({ snDevEUI: serials[2] as string, name: "on-platform" });
    const { inputs } = await batch.check({}, { fleetName: "partial", records: records(serials) });
    const error = await batch.create(inputs).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartialSuccessError);
    const failed = error as PartialSuccessError;
    expect(failed.message).toMatch(
      new RegExp(
        `create RpsFleet partial failed for 1 of 5 record\\(s\\):\\n  - specify RPS record ${serials[2]} failed: the device ${serials[2]} is already on the platform`,
      ),
    );
    expect(Object.keys(failed.properties.profileUrls as object).sort()).toEqual(
      serials.filter((_, i) => i !== 2).sort(),
    );
  });

  it("refuses one serial number declared by two batches, or by a batch and an RpsProfile, either first", async () => {
    const [a, b] = serialNumbers(2, "AC") as [string, string];
    await batch.check({}, { fleetName: "first", records: records([a]) });
    const second = await batch.check({}, { fleetName: "second", records: records([a.toLowerCase()]) });
    expect(second.failures).toEqual([
      {
        property: "",
        reason: expect.stringContaining(
          `serial number ${a.toLowerCase()} is declared by RpsFleet "second" and by RpsFleet "first"`,
        ),
      },
    ]);
    const profile = await rpsProfileImplementation.check({}, { sn: a, profileUrl: URL_A });
    expect(profile.failures).toEqual([
      {
        property: "sn",
        reason: expect.stringContaining(`is declared by this RpsProfile and by RpsFleet "first"`),
      },
    ]);
    await rpsProfileImplementation.check({}, { sn: b, profileUrl: URL_A });
    const third = await batch.check({}, { fleetName: "third", records: records([b]) });
    expect(third.failures[0]?.reason).toContain(`declared by RpsFleet "third" and by an RpsProfile resource`);
  });

  it("refuses one serial number declared by a batch and a DeviceFleet or a Device, in either order", async () => {
    const [a, b, c] = serialNumbers(3, "AC") as [string, string, string];
    const devices = (sn: string) => JSON.stringify([{ sn, name: `d-${sn.slice(-4)}` }]);
    // The batch first: the fleet and the Device checked after it are refused.
    expect((await batch.check({}, { fleetName: "early", records: records([a, c]) })).failures).toEqual([]);
    const fleetAfter = await fleet.check({}, { fleetName: "site-late", devices: devices(a.toLowerCase()) });
    expect(fleetAfter.failures).toEqual([
      {
        property: "",
        reason: expect.stringContaining(
          `serial number ${a.toLowerCase()} is declared by DeviceFleet "site-late" and by RpsFleet "early" (as an RPS record)`,
        ),
      },
    ]);
    const deviceAfter = await deviceImplementation.check({}, { sn: c, name: "gw" });
    expect(deviceAfter.failures).toEqual([
      {
        property: "sn",
        reason: expect.stringContaining(
          `is declared by a Device resource and by RpsFleet "early" (as an RPS record)`,
        ),
      },
    ]);
    // The fleet first: the batch checked after it is refused.
    expect((await fleet.check({}, { fleetName: "site-early", devices: devices(b) })).failures).toEqual([]);
    const batchAfter = await batch.check({}, { fleetName: "late", records: records([b]) });
    expect(batchAfter.failures).toEqual([
      {
        property: "",
        reason: expect.stringContaining(
          `serial number ${b} is declared by RpsFleet "late" and by DeviceFleet site-early (as a device)`,
        ),
      },
    ]);
  });

  it("hands records over to a DeviceFleet: deleted, not counted as removals, and the fleet adds the devices", async () => {
    const serials = serialNumbers(6, "AC");
    const first = await deployed("handover", records(serials), { maxRemovals: 0 });
    resetOwnership();
    resetRpsOwnership();
    const moving = serials.slice(0, 4);
    const staying = records(serials.slice(4));
    const fleetCheck = await fleet.check(
      {},
      {
        fleetName: "site",
        devices: JSON.stringify(moving.map((sn, i) => ({ sn, name: `d-${i}` }))),
        takeOverRps: true,
      },
    );
    expect(fleetCheck.failures).toEqual([]);
    const { inputs, failures } = await checkNext(first, staying, { maxRemovals: 0 });
    expect(failures).toEqual([]);
    const { messages } = await told(() => batch.diff("handover", first.outs, inputs));
    expect(messages[0]).toMatch(
      /^RpsFleet handover: 4 handed over to a device resource \(.*\), 2 unchanged$/,
    );
    await env.emulator.control.resetCounters();
    const { outs } = await batch.update("handover", first.outs, inputs);
    expect(writesOf(await counters())).toEqual({ "DELETE /rps/{sn}": 4 });
    const left = (await env.emulator.control.state()).rpsRecords.map((r) => r.sn);
    expect(moving.filter((sn) => left.includes(sn))).toEqual([]);
    // A map by serial number: its keys come in the order the writes ended.
    expect(Object.keys(outs.profileUrls as object).sort()).toEqual(serials.slice(4).sort());
    await fleet.create(fleetCheck.inputs);
    const devices = (await env.emulator.control.state()).devices.filter((d) => moving.includes(d.sn ?? ""));
    expect(devices).toHaveLength(4);
  });

  it("takes over per-record RpsProfiles without a write: the batch adopts, their deletes leave the records", async () => {
    const serials = serialNumbers(12, "AC");
    for (const sn of serials) await rpsProfileImplementation.create({ sn, profileUrl: URL_A });
    // The next deployment: the RpsProfiles are gone from the program, the batch declares their records.
    resetRpsOwnership();
    await env.emulator.control.resetCounters();
    const { inputs } = await batch.check({}, { fleetName: "moved", records: records(serials) });
    await batch.create(inputs);
    for (const sn of serials) await rpsProfileImplementation.delete(sn, { sn, profileUrl: URL_A });
    expect(writesOf(await counters())).toEqual({});
    const left = (await env.emulator.control.state()).rpsRecords.map((r) => r.sn);
    expect(serials.filter((sn) => !left.includes(sn))).toEqual([]);
  });

  it("converges after an up killed part way through its create: the records written are adopted, the rest written once", async () => {
    const serials = serialNumbers(20, "AC");
    const client = await platformClient();
    // What the killed `up` had done: half of the records specified, nothing recorded in the stack.
    for (const sn of serials.slice(0, 10)) await client.setRpsProfile({ sn, profileUrl: URL_A });
    await env.emulator.control.resetCounters();
    const { outs } = await deployed("killed", records(serials));
    expect(writesOf(await counters())).toEqual({ "POST /rps/profile": 10 });
    expect(Object.keys(outs.profileUrls as object)).toHaveLength(20);
    const onPlatform = (await env.emulator.control.state()).rpsRecords.filter((r) => serials.includes(r.sn));
    expect(onPlatform).toHaveLength(20);
  });
});
