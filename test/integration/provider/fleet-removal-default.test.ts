/**
 * The default against mass removal (issue #36 item 2), against the emulator: a DeviceFleet without
 * maxRemovals of its own stops before deleting more than half of the devices it manages (and more
 * than one) — at check, so a preview fails, and again at the update, so an `up` without preview
 * writes nothing. What a header-only or cut inventory used to do: delete the fleet's devices.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { deviceFleetImplementation as fleet } from "../../../provider/device-fleet/provider";
import { resetOwnership } from "../../../provider/guardrails/ownership";
import type { Inputs } from "../../../provider/shared/input-checks";
import { serialNumbers } from "../../e2e/support/fleet-programs";
import { writesOf } from "../../e2e/support/platform-writes";
import { useConfiguredEmulator } from "./support/configured-emulator";

const env = useConfiguredEmulator();

type Entry = { sn: string; name: string; project?: string };

beforeEach(() => resetOwnership());

const entries = (serials: readonly string[]): Entry[] => serials.map((sn, i) => ({ sn, name: `d-${i}` }));

/** A fleet deployed with `devices`: its checked inputs and outputs. */
async function deployed(name: string, devices: Entry[], settings: Inputs = {}) {
  const { inputs, failures } = await fleet.check({}, { fleetName: name, devices, ...settings });
  expect(failures).toEqual([]);
  return { inputs, outs: (await fleet.create(inputs)).outs ?? {} };
}

/** The check's failures of `devices` after `previous`, and the writes an update of them sends. */
async function removing(previous: { inputs: Inputs; outs: Inputs }, devices: Entry[], settings: Inputs = {}) {
  const name = previous.inputs.fleetName as string;
  const news = { fleetName: name, devices, ...settings };
  const { failures } = await fleet.check(previous.inputs, news);
  await env.emulator.control.resetCounters();
  const checked = {
    ...previous.inputs,
    ...settings,
    entries: Object.fromEntries(devices.map(({ sn, ...e }) => [sn, e])),
  };
  const update = await fleet.update(name, previous.outs, checked).then(
    () => "updated",
    (error: Error) => error.message,
  );
  return { failures, update, writes: writesOf((await env.emulator.control.counters()).byRoute) };
}

describe("a fleet without maxRemovals", () => {
  it("stops at check and at update when an emptied inventory would delete all its devices", async () => {
    const serials = serialNumbers(5);
    const first = await deployed("emptied", entries(serials));
    const { failures, update, writes } = await removing(first, []);
    const message =
      `DeviceFleet emptied would delete 5 of the 5 devices it manages (${serials.join(", ")}), more than half of ` +
      "them; nothing was written. A fleet without maxRemovals stops before deleting more than half its devices at " +
      "once, which is what an emptied, cut off or mis-decoded inventory looks like. Check the file the fleet is read " +
      "from; if the removals are meant, set the fleet's maxRemovals (5 or more) for this change, or the stack's " +
      "removal budget (`pulumi config set devplatform:maxRemovals 5`)";
    expect(failures).toEqual([{ property: "", reason: message }]);
    expect(update).toBe(`update DeviceFleet emptied failed: ${message}`);
    expect(writes).toEqual({});
  });

  it("deletes up to half (and one of two); more than half stops", async () => {
    const five = serialNumbers(5);
    const first = await deployed("half", entries(five));
    expect((await removing(first, entries(five.slice(0, 2)))).failures).toHaveLength(1);
    const kept = await removing(first, entries(five.slice(0, 3)));
    expect(kept.failures).toEqual([]);
    expect(kept.writes).toEqual({ "DELETE /devices/{deviceId}": 2 });
    const two = serialNumbers(2);
    const pair = await deployed("pair", entries(two));
    expect((await removing(pair, [])).failures).toHaveLength(1);
    expect((await removing(pair, entries(two).slice(1))).writes).toEqual({
      "DELETE /devices/{deviceId}": 1,
    });
  });

  it("keeps the behaviour of programs that set maxRemovals, and of fleets that release", async () => {
    const serials = serialNumbers(4);
    const own = await deployed("own-cap", entries(serials), { maxRemovals: 4 });
    const allowed = await removing(own, [], { maxRemovals: 4 });
    expect(allowed.failures).toEqual([]);
    expect(allowed.writes).toEqual({ "DELETE /devices/{deviceId}": 4 });
    const released = await deployed("released", entries(serialNumbers(4)), { onRemove: "release" });
    const gone = await removing(released, [], { onRemove: "release" });
    expect(gone.failures).toEqual([]);
    expect(gone.writes).toEqual({});
  });
});
